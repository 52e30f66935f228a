import type { Request, Response } from 'express';
import type { Permission } from '../../contracts/permissions.js';
import type { Actor } from '../auth/actor.js';
import { authorize } from '../auth/authorize.js';
import { assertProtectionAllows } from '../auth/connection-protection.js';
import { requireActor } from '../auth/require-actor.js';
import { enforceRateLimit } from '../rate-limit/enforce-rate-limit.js';
import type { Services } from '../services.js';
import { openConnection } from '../stores/open-connection.js';
import { asStoreError } from '../stores/store-errors.js';
import type { StoreHandle } from '../stores/store-handle.js';
import { createHttpContextFactory, type Context } from '../trpc/context.js';
import { describeError } from '../trpc/errors.js';
import { sendErrorDescription } from './error-body.js';

/** What a plain route's handler gets: the request context and the guards the procedures use. */
export interface PlainCall {
  ctx: Context;
  req: Request;
  res: Response;
  /** Signed in (401) and allowed `permission` (403): the procedures' identity and permission checks. */
  requireActor(permission: Permission): Promise<Actor>;
  /**
   * The connection as the procedures resolve it (404/403) and protect it (403
   * CONNECTION_PROTECTED for what `requireActor`'s permission would change);
   * a store failure later answers 503 naming it.
   */
  openConnection(actor: Actor, connectionId: unknown): Promise<StoreHandle>;
}

/**
 * A route that cannot be a procedure (an event stream; Prometheus's text
 * exposition), guarded by the same functions the procedures' middleware
 * calls: the request context, the rate limit, identity, permission,
 * connection, and errors sent as the one error body (5xx logged). `name`
 * stands for the procedure path in messages and logs.
 */
export function plainRoute<Params>(services: Services, name: string, handle: (call: PlainCall) => Promise<void>) {
  const createContext = createHttpContextFactory(services, 'rest');
  return async (req: Request<Params>, res: Response): Promise<void> => {
    const ctx = createContext({ req: req as unknown as Request, res });
    let store: StoreHandle | undefined;
    let permission: Permission | undefined;
    const call: PlainCall = {
      ctx,
      req: req as unknown as Request,
      res,
      async requireActor(required) {
        const actor = await requireActor(ctx);
        authorize(actor, required, name);
        permission = required;
        return actor;
      },
      async openConnection(actor, connectionId) {
        if (!permission) throw new Error(`plain route ${name} opens a connection before requireActor`);
        const opened = await openConnection(services, actor, connectionId);
        const input = { ...(req.query as Record<string, unknown>), ...(req.params as Record<string, unknown>) };
        assertProtectionAllows({
          connection: opened.connection,
          actor,
          permission,
          input,
          confirms: 'queueName' in input ? 'queue' : 'connection',
        });
        store = opened;
        return opened;
      },
    };
    try {
      await enforceRateLimit(ctx);
      await handle(call);
    } catch (error) {
      const description = describeError(store ? asStoreError(store.connection, error) : error);
      if (description.httpStatus >= 500)
        ctx.logger.error({ err: error, route: name, code: description.code }, description.message);
      if (!res.headersSent) sendErrorDescription(res, description);
      else res.end();
    }
  };
}
