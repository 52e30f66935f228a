import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** One fact about this instance (who claimed it first, the setup token's hash); the key is unique. */
export const InstanceSetting = defineEntity({
  name: 'InstanceSetting',
  tableName: 'instance_setting',
  properties: {
    key: p.string().primary().length(100),
    value: p.text(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});

export type InstanceSettingRecord = InferEntity<typeof InstanceSetting>;
