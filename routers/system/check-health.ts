import type { Health } from '../../contracts/system.js';
import type { Persistence } from '../../server/persistence/persistence.js';
import { serviceVersion } from './version.js';

export async function checkHealth(persistence: Persistence, uptimeSeconds: number): Promise<Health> {
  const persistenceHealth = await persistence.health();
  return {
    status: persistenceHealth.ok ? 'ok' : 'degraded',
    uptimeSeconds,
    version: serviceVersion,
    checks: { persistence: persistenceHealth },
  };
}
