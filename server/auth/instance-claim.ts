import { InstanceSetting } from '../persistence/entities/instance-setting.js';
import { User } from '../persistence/entities/user.js';
import type { EntityManager } from '../persistence/orm.js';

/** The row whose unique key lets exactly one sign-up become the instance's first owner. */
export const firstOwnerKey = 'first-owner';

/** Whether someone already owns the instance (an instance from before this row existed counts by its users). */
export async function instanceClaimed(em: EntityManager): Promise<boolean> {
  if (await em.count(InstanceSetting, { key: firstOwnerKey })) return true;
  return (await em.count(User, {})) > 0;
}
