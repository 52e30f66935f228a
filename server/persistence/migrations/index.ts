import { Migration0001Organizations } from './0001-organizations.js';
import { Migration0002Connections } from './0002-connections.js';
import { Migration0003Auth } from './0003-auth.js';
import { Migration0004SafeDefaults } from './0004-safe-defaults.js';
import { Migration0005QueueIndex } from './0005-queue-index.js';
import { Migration0007ExternalIdentities } from './0007-external-identities.js';
import { Migration0008HistoryAndAlerts } from './0008-history-and-alerts.js';
import { Migration0009Tasks } from './0009-tasks.js';
import { Migration0010ConnectionProtection } from './0010-connection-protection.js';
import { Migration0011TokenScopeAndReasons } from './0011-token-scope-and-reasons.js';
import { Migration0012HistoryLatency } from './0012-history-latency.js';
import { Migration0015IdempotencyKeys } from './0015-idempotency-keys.js';

/** Applied in order at startup; never edit a released migration, add a new one. */
export const migrations = [
  { name: '0001-organizations', class: Migration0001Organizations },
  { name: '0002-connections', class: Migration0002Connections },
  { name: '0003-auth', class: Migration0003Auth },
  { name: '0004-safe-defaults', class: Migration0004SafeDefaults },
  { name: '0005-queue-index', class: Migration0005QueueIndex },
  { name: '0007-external-identities', class: Migration0007ExternalIdentities },
  { name: '0008-history-and-alerts', class: Migration0008HistoryAndAlerts },
  { name: '0009-tasks', class: Migration0009Tasks },
  { name: '0010-connection-protection', class: Migration0010ConnectionProtection },
  { name: '0011-token-scope-and-reasons', class: Migration0011TokenScopeAndReasons },
  { name: '0012-history-latency', class: Migration0012HistoryLatency },
  { name: '0015-idempotency-keys', class: Migration0015IdempotencyKeys },
];
