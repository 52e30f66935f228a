import type { DefinitionAction, DefinitionChange, DefinitionKind } from '../../contracts/definitions-import.js';
import type {
  AlertDestinationDefinition,
  AlertRuleDefinition,
  ConnectionDefinition,
  QueueSettingsDefinition,
  SchedulerDefinition,
} from '../../contracts/definitions.js';
import type { CreateConnectionInput, UpdateConnectionInput } from '../../contracts/connections.js';
import type { ConnectionProtection } from '../../contracts/protection.js';
import type { StoreConnection } from '../../server/stores/store-connection.js';

/** What an import will do, item by item: every step here is a create or a change (unchanged items have none). */
export interface DestinationStep {
  definition: AlertDestinationDefinition;
  /** The saved destination it changes; absent: created. */
  id?: string | undefined;
  /** The values to write (a secret not given stays undefined; the import is then refused). */
  write: { type?: 'webhook' | 'slack'; url?: string | undefined; secret?: string | undefined };
}

export interface QueueSettingsStep {
  definition: QueueSettingsDefinition;
  prefix: string;
  /** Only the fields that change; null removes the limit. */
  globalConcurrency?: number | null | undefined;
  globalRateLimit?: { max: number; durationMs: number } | null | undefined;
}

export interface SchedulerStep {
  definition: SchedulerDefinition;
  prefix: string;
  mode: 'create' | 'update';
}

export interface RuleStep {
  definition: AlertRuleDefinition;
  /** The rule it changes; absent: created. */
  id?: string | undefined;
}

export interface ConnectionStep {
  definition: ConnectionDefinition;
  /** The connection as it is now; absent: created by this import. */
  current?: StoreConnection | undefined;
  /** The connection's own create or change, when its settings differ (never for an environment connection). */
  create?: CreateConnectionInput | undefined;
  update?: UpdateConnectionInput | undefined;
  /** The connection as it will be: what protection the store writes answer to, which prefixes they resolve in. */
  resulting: { name: string; protection: ConnectionProtection; prefixes: string[]; source: 'saved' | 'env' };
  queues: QueueSettingsStep[];
  schedulers: SchedulerStep[];
  rules: RuleStep[];
}

/** Records what the answer says of each item as the plan is made. */
export class ChangeList {
  readonly changes: DefinitionChange[] = [];

  add(kind: DefinitionKind, name: string, action: DefinitionAction, fields?: string[]): void {
    this.changes.push({ kind, name, action, ...(action === 'change' && fields ? { fields } : {}) });
  }

  /** `create` when nothing exists, `change` when fields differ, `unchanged` otherwise; answers whether there is work. */
  judge(kind: DefinitionKind, name: string, exists: boolean, fields: string[]): boolean {
    const action: DefinitionAction = !exists ? 'create' : fields.length > 0 ? 'change' : 'unchanged';
    this.add(kind, name, action, fields);
    return action !== 'unchanged';
  }
}
