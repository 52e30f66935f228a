import type { TestConnectionInput, TestConnectionResult } from '../../contracts/connections.js';
import type { ConnectionCatalog } from '../../server/stores/connection-catalog.js';
import { findVisibleConnection } from '../../server/stores/open-connection.js';
import { probeStore } from '../../server/stores/probe-store.js';
import type { TargetPolicy } from '../../server/stores/target-policy.js';
import { resolveTransport } from './connection-settings.js';

/** Tests a saved/environment connection (`id`) or a URL not saved yet: never throws for an unreachable store. */
export async function testConnection(deps: {
  connections: ConnectionCatalog;
  policy: TargetPolicy;
  organizationId: string;
  input: TestConnectionInput;
}): Promise<TestConnectionResult> {
  const { input } = deps;
  const target = input.id !== undefined ? await findVisibleConnection(deps.connections, deps.organizationId, input.id) : resolveTransport(input);
  return probeStore(target, deps.policy);
}
