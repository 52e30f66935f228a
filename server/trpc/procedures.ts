import { authorize } from '../auth/authorize.js';
import { openConnection } from '../stores/open-connection.js';
import { isStoreUnavailable, storeUnavailable } from '../stores/store-errors.js';
import { baseProcedure } from './init.js';
import { auditMutations, type AuditTarget } from './middleware/audit-mutations.js';
import { authenticate } from './middleware/authenticate.js';
import { decodePathParams } from './middleware/decode-path-params.js';
import { enforceProtection } from './middleware/enforce-protection.js';
import { forkEntityManager } from './middleware/fork-entity-manager.js';
import { mapErrors } from './middleware/map-errors.js';
import { rateLimit } from './middleware/rate-limit.js';
import { rejectInAuthless } from './middleware/reject-in-authless.js';
import { rejectEnvConnectionWrites } from './middleware/reject-env-connection-writes.js';
import { requireSameOrigin } from './middleware/require-same-origin.js';
import { withRouteQueue } from './middleware/resolve-route-queue.js';
import { retryTerminatedRead } from './middleware/retry-terminated-read.js';

/**
 * Every procedure starts here: errors mapped, REST path params decoded, CSRF checked, rate limited,
 * and a read retried once when its database connection was terminated.
 */
export const publicProcedure = baseProcedure.use(mapErrors).use(decodePathParams).use(requireSameOrigin).use(rateLimit).use(retryTerminatedRead);

/** For procedures that touch the database: a fresh EntityManager per call. */
export const persistedProcedure = publicProcedure.use(forkEntityManager);

/**
 * Signed in (401 otherwise) and allowed the procedure's `meta.permission`
 * (403 otherwise). Mutations are audited, refused ones included.
 */
export const authedProcedure = publicProcedure
  .use(authenticate)
  .use(({ ctx, type, path, meta, getRawInput, next }) => {
    const auditTarget: AuditTarget = {};
    return auditMutations({ ctx, type, path, meta, getRawInput, target: auditTarget, next: () => next({ ctx: { auditTarget } }) });
  })
  .use(({ ctx, meta, path, next }) => {
    authorize(ctx.actor, meta?.permission, path);
    return next();
  });

/** Signed in and allowed, with a fresh EntityManager. */
export const authedPersistedProcedure = authedProcedure.use(forkEntityManager);

/** Tokens, members, set-active...: answered 400 AUTHLESS_MODE in authless mode, where nobody signs in. */
export const accountProcedure = authedPersistedProcedure.use(rejectInAuthless);

/** Creating, changing or deleting saved connections: 403 when the environment owns the connections. */
export const savedConnectionWriteProcedure = authedPersistedProcedure.use(rejectEnvConnectionWrites);

/**
 * For every `/c/:connectionId/...` route: resolves the connection (404/403),
 * applies its protection (403 CONNECTION_PROTECTED) and puts its live store in
 * `ctx.store`. A store that is down, stalled or refuses auth turns into 503
 * STORE_UNAVAILABLE naming the connection.
 */
export const connectionProcedure = authedProcedure.use(async ({ ctx, meta, getRawInput, next }) => {
  const raw = (await getRawInput()) as { connectionId?: unknown } | undefined;
  const store = await openConnection(ctx.services, ctx.actor, raw?.connectionId);
  // A connection may be named by its name: from here on (the procedure, the
  // audit event) the input names it by id, as every record of it does.
  if (raw) raw.connectionId = store.connection.id;
  enforceProtection({ connection: store.connection, actor: ctx.actor, meta, input: raw });
  const result = await next({ ctx: { store } });
  const cause = result.ok ? undefined : (result.error.cause ?? result.error);
  if (cause && isStoreUnavailable(cause)) throw storeUnavailable(store.connection, cause);
  return result;
});

/**
 * For every route under `/c/:connectionId/queues/:queueName/...` and
 * `scheduled-jobs/queue/:queueName...`: resolves the queue once, before
 * anything else (404 when missing, unless `meta.queue` is `create`), and puts
 * it in `ctx.queue` (name, prefix, BullMQ handle); queue creations and
 * removals keep the queue-name directory fresh. `ctx.queueLookup` holds the
 * candidate prefixes and the 404: routes with `meta.queueCheck: 'in-script'`
 * (one read script that checks the queue itself) use only that, and skip
 * the EXISTS round trip.
 */
export const queueProcedure = connectionProcedure.use(({ ctx, meta, getRawInput, next }) =>
  withRouteQueue({
    store: ctx.store,
    query: ctx.transport === 'rest' ? ctx.req?.query : undefined,
    directory: ctx.services.queueDirectory,
    use: meta?.queue ?? 'read',
    check: meta?.queueCheck,
    getRawInput,
    next: (queue, queueLookup) => {
      if (meta?.queueCheck !== 'in-script') ctx.auditTarget.queue = queue.ref;
      return next({ ctx: { queue, queueLookup } });
    },
  }),
);
