import type { TestConnectionInput, TestConnectionResult } from '../../contracts/connections.js';
import type { ConnectionCatalog } from '../../server/stores/connection-catalog.js';
import { findVisibleConnection } from '../../server/stores/open-connection.js';
import { probeStore } from './probe-store.js';
import type { TargetPolicy } from '../../server/stores/target-policy.js';
import { defaultSchema, resolveTransport } from './connection-settings.js';
import { storeKindOf } from '../../contracts/store-url.js';
import { AppError } from '../../contracts/app-error.js';
import { probePostgres } from './probe-postgres.js';

/** Tests a saved/environment connection (`id`) or a URL not saved yet: never throws for an unreachable store. */
export async function testConnection(deps: {
  connections: ConnectionCatalog;
  policy: TargetPolicy;
  organizationId: string;
  input: TestConnectionInput;
}): Promise<TestConnectionResult> {
  const { input } = deps;
  const saved =
    input.id !== undefined ? await findVisibleConnection(deps.connections, deps.organizationId, input.id) : undefined;
  const target = saved ?? resolveTransport(input);
  if (storeKindOf(target.url) === 'redis') {
    if (input.schema !== undefined)
      throw new AppError('VALIDATION_FAILED', 'Invalid input: schema: only PostgreSQL URLs have a schema', {
        field: 'schema',
      });
    return probeStore(target, deps.policy);
  }
  return probePostgres(target, saved?.prefixes[0] ?? input.schema ?? defaultSchema, deps.policy);
}
