import { createCaller } from './_app.js';
import { loadConfig, loadConfigFromProcessEnv } from '../server/config.js';
import { identifyToken, type Identity } from '../server/auth/identity.js';
import { createLogger } from '../server/logger.js';
import { closeServices, createServices, type Services } from '../server/services.js';
import { createInnerContext } from '../server/trpc/context.js';

export type { AppRouter } from './_app.js';
export { ConfigError } from '../server/config.js';

/**
 * Who an in-process call acts as. The same permissions and audit trail as
 * over HTTP: a token acts with its role in its organization; a user with
 * their role in `organizationId` (default: the first they joined); `system`
 * as owner of the instance (local) organization, audited as actor `internal`.
 */
export type BullpenIdentity = { token: string } | { userId: string; organizationId?: string } | { system: true };

export type BullpenCaller = ReturnType<typeof createCaller>;

export interface BullpenOptions {
  /** The environment to configure from, validated like the service's; defaults to `process.env`. */
  env?: Record<string, string | undefined>;
}

export interface BullpenCallOptions {
  /** Why: kept in the audit events of the changes made, as the `Bullpen-Reason` header is over HTTP (and required where SERVICE_REQUIRE_REASON asks). */
  reason?: string;
}

export interface Bullpen {
  /** The procedures as functions (`api.queues.list({ connectionId })`), acting as `identity`; no HTTP. */
  api(identity: BullpenIdentity, options?: BullpenCallOptions): BullpenCaller;
  /** Closes the database, the store connections and the rest; call it once when done. */
  close(): Promise<void>;
}

function identifier(services: Services, identity: BullpenIdentity): () => Promise<Identity | null> {
  if ('token' in identity) return () => identifyToken(services, identity.token);
  if ('userId' in identity) {
    return async () => ({
      kind: 'in-process-user',
      userId: identity.userId,
      organizationId: identity.organizationId ?? null,
    });
  }
  if (identity.system === true) return async () => ({ kind: 'system' });
  throw new TypeError('identity must be { token }, { userId, organizationId? } or { system: true }');
}

/**
 * Bullpen for internal tooling, in this process: the service's configuration,
 * database and stores, without the HTTP server. Logs go to stderr, so a
 * script's own output stays clean.
 *
 * @example
 * const bullpen = await createBullpen();
 * const { queues } = await bullpen.api({ system: true }).queues.list({ connectionId: 'main' });
 * await bullpen.close();
 */
export async function createBullpen(options: BullpenOptions = {}): Promise<Bullpen> {
  const config = options.env ? loadConfig(options.env) : loadConfigFromProcessEnv();
  const services = await createServices(config, createLogger({ level: config.logLevel, destination: process.stderr }));
  let closed: Promise<void> | undefined;
  return {
    // A fresh context per call: its own request id, and credentials checked each time (a revoked token stops working).
    api: (identity, { reason } = {}) => {
      const identify = identifier(services, identity);
      return createCaller(() => ({
        ...createInnerContext(services, 'internal', identify),
        ...(reason ? { reason } : {}),
      }));
    },
    close: () => (closed ??= closeServices(services)),
  };
}
