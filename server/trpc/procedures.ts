import type { EntityManager } from '../persistence/orm.js';
import type { Actor } from '../auth/actor.js';
import { authorize } from '../auth/authorize.js';
import type { QueueLookup, ResolvedQueue } from '../bullmq/resolve-queue.js';
import type { StoreHandle } from '../stores/store-handle.js';
import type { Context } from './context.js';
import { openConnection } from '../stores/open-connection.js';
import { isStoreUnavailable, storeUnavailable } from '../stores/store-errors.js';
import { baseProcedure, type ProcedureMeta } from './init.js';
import { chainSteps, type Step, type StepCall } from './middleware-chain.js';
import { withFinalStep } from './final-step.js';
import { announceLocation } from './middleware/announce-location.js';
import { auditMutations, type AuditTarget } from './middleware/audit-mutations.js';
import { honourIdempotencyKey } from './middleware/honour-idempotency-key.js';
import { authenticate } from './middleware/authenticate.js';
import { decodePathParams } from './middleware/decode-path-params.js';
import { decideOnParsedInput } from './middleware/decide-on-parsed-input.js';
import { forkEntityManager } from './middleware/fork-entity-manager.js';
import { mapErrors } from './middleware/map-errors.js';
import { rateLimit } from './middleware/rate-limit.js';
import { rejectInAuthless } from './middleware/reject-in-authless.js';
import { rejectEnvConnectionWrites } from './middleware/reject-env-connection-writes.js';
import { requireSameOrigin } from './middleware/require-same-origin.js';
import { withRouteQueue } from './middleware/resolve-route-queue.js';
import { retryTerminatedRead } from './middleware/retry-terminated-read.js';

type AuthedContext = Context & { actor: Actor; auditTarget: AuditTarget };
type Persisted = { em: EntityManager };
type Authed = { actor: Actor; auditTarget: AuditTarget };
type OnConnection = Authed & { store: StoreHandle };
type OnQueue = OnConnection & { queue: ResolvedQueue; queueLookup: QueueLookup };

/** Mutations are audited, refused ones included; later steps name the queue in `auditTarget`. */
const auditCall: Step<AuthedContext> = ({ ctx, type, path, meta, getRawInput, next }) => {
  const auditTarget: AuditTarget = {};
  return auditMutations({
    ctx,
    type,
    path,
    meta,
    getRawInput,
    target: auditTarget,
    next: () => next({ ctx: { auditTarget } }),
  });
};

/**
 * 403 unless the actor's role allows the procedure's `meta.permission`, a
 * token may call it (`meta.sessionOnly`) and, for a mutation, the token is not read-scoped.
 */
const authorizeCall: Step<AuthedContext> = ({ ctx, meta, path, type, next }) => {
  authorize(ctx.actor, meta?.permission, path, {
    sessionOnly: meta?.sessionOnly === true,
    mutation: type === 'mutation',
  });
  return next();
};

/**
 * Resolves `:connectionId` (404/403; an id or the connection's name) and puts
 * its live store in `ctx.store`; its protection is applied once the input is
 * parsed (decideOnParsedInput). A store that is down, stalled or refuses auth turns into 503
 * STORE_UNAVAILABLE naming the connection.
 */
const openRouteConnection: Step<AuthedContext> = async ({ ctx, getRawInput, next }) => {
  const raw = (await getRawInput()) as { connectionId?: unknown } | undefined;
  const store = await openConnection(ctx.services, ctx.actor, raw?.connectionId);
  // A connection may be named by its name: from here on (the procedure, the
  // audit event) the input names it by id, as every record of it does.
  if (raw) raw.connectionId = store.connection.id;
  const result = await next({ ctx: { store } });
  const cause = result.ok ? undefined : (result.error.cause ?? result.error);
  if (cause && isStoreUnavailable(cause)) throw storeUnavailable(store.connection, cause);
  return result;
};

/**
 * Resolves `:queueName` once, before anything else (404 when missing, unless
 * `meta.queue` is `create`), into `ctx.queue` (name, prefix, BullMQ handle);
 * queue creations and removals keep the queue-name directory fresh.
 * `ctx.queueLookup` holds the candidate prefixes and the 404: routes with
 * `meta.queueCheck: 'in-script'` (one read script that checks the queue
 * itself) use only that, and skip the EXISTS round trip.
 */
const resolveRouteQueue: Step<AuthedContext & { store: StoreHandle }> = ({
  ctx,
  meta,
  getRawInput,
  next,
}: StepCall<AuthedContext & { store: StoreHandle }>) =>
  withRouteQueue({
    store: ctx.store,
    query: ctx.transport === 'rest' ? ctx.req?.query : undefined,
    directory: ctx.services.queueDirectory,
    use: (meta as ProcedureMeta | undefined)?.queue ?? 'read',
    check: meta?.queueCheck,
    getRawInput,
    next: (queue, queueLookup) => {
      if (meta?.queueCheck !== 'in-script') ctx.auditTarget.queue = queue.ref;
      return next({ ctx: { queue, queueLookup } });
    },
  });

/**
 * Every procedure starts with these: errors mapped, REST path params decoded,
 * CSRF checked, rate limited, and a read retried once when its database
 * connection was terminated. Each kind of procedure runs its steps as one
 * middleware layer (see middleware-chain.ts).
 */
const publicSteps = [mapErrors, decodePathParams, requireSameOrigin, rateLimit, retryTerminatedRead];
/** Signed in (401 otherwise) and allowed the procedure's `meta.permission` (403 otherwise); mutations audited; `Location` on creates. */
const authedSteps = [...publicSteps, authenticate, auditCall, authorizeCall, announceLocation];

export const publicProcedure = baseProcedure.use(chainSteps<object>(publicSteps));

/** For procedures that touch the database: a fresh EntityManager per call. */
export const persistedProcedure = baseProcedure.use(chainSteps<Persisted>([...publicSteps, forkEntityManager]));

export const authedProcedure = baseProcedure.use(chainSteps<Authed>(authedSteps));

/** Signed in and allowed, with a fresh EntityManager. */
export const authedPersistedProcedure = baseProcedure.use(
  chainSteps<Authed & Persisted>([...authedSteps, forkEntityManager]),
);

/** Tokens, members, set-active...: answered 400 AUTHLESS_MODE in authless mode, where nobody signs in. */
export const accountProcedure = baseProcedure.use(
  chainSteps<Authed & Persisted>([...authedSteps, forkEntityManager, rejectInAuthless]),
);

/** Creating, changing or deleting saved connections: 403 when the environment owns the connections. */
export const savedConnectionWriteProcedure = baseProcedure.use(
  chainSteps<Authed & Persisted>([...authedSteps, forkEntityManager, rejectEnvConnectionWrites]),
);

/**
 * The procedures that may change a store: mutations. A query's permission
 * changes nothing (test/system/strict-inputs.test.ts holds it), so reads,
 * the hot path, skip the decision and its middleware layer.
 */
const changesStore = ['mutation'] as const;

/**
 * For every `/c/:connectionId/...` route: the connection resolved into
 * `ctx.store` (see openRouteConnection); its protection judged on the parsed
 * input, last, right before the procedure runs (decideOnParsedInput).
 */
export const connectionProcedure = withFinalStep(
  baseProcedure.use(chainSteps<OnConnection>([...authedSteps, openRouteConnection, honourIdempotencyKey])),
  decideOnParsedInput,
  changesStore,
);

/**
 * For every route under `/c/:connectionId/queues/:queueName/...` and
 * `scheduled-jobs/queue/:queueName...`: the connection, then the queue
 * (see resolveRouteQueue), and the protection as for connectionProcedure.
 */
export const queueProcedure = withFinalStep(
  baseProcedure.use(
    chainSteps<OnQueue>([...authedSteps, openRouteConnection, resolveRouteQueue, honourIdempotencyKey]),
  ),
  decideOnParsedInput,
  changesStore,
);
