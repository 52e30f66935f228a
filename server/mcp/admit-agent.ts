import { AppError } from '../../contracts/app-error.js';
import type { Actor } from '../auth/actor.js';
import { bearerToken } from '../auth/identity.js';
import { resolveActor } from '../auth/resolve-actor.js';
import { enforceRateLimit } from '../rate-limit/enforce-rate-limit.js';
import { requestOrigin } from '../trpc/middleware/require-same-origin.js';
import type { Context } from '../trpc/context.js';

/** One JSON-RPC `tools/call` request: its procedure counts it against the rate limit, as the REST call would be. */
const isSingleToolCall = (body: unknown) =>
  typeof body === 'object' && body !== null && (body as { method?: unknown }).method === 'tools/call';

const unauthorized = () =>
  new AppError(
    'UNAUTHORIZED',
    'The MCP endpoint takes an API token: send Authorization: Bearer <token> (create one with POST /api/auth/tokens; scope "read" for a read-only agent)',
  );

/**
 * Who an MCP request acts as: the API token it presents (a session cookie
 * does not count: a browser must not drive an agent endpoint), or the local
 * owner in authless mode; an `agent` either way (resolveActor). A browser
 * page from another origin is refused (403), as MCP asks of HTTP servers
 * against DNS rebinding. The request counts once against the rate limit: a
 * lone tool call in its procedure, anything else (initialize, tools/list, a
 * batch) here, before the credentials are looked up.
 */
export async function admitAgent(ctx: Context, body: unknown): Promise<Actor> {
  const { services, req } = ctx;
  const countedByProcedure = isSingleToolCall(body);
  if (!countedByProcedure) await enforceRateLimit(ctx);
  const origin = req?.headers.origin;
  if (origin !== undefined && requestOrigin(req!) !== services.auth.appOrigin) {
    throw new AppError(
      'FORBIDDEN',
      `Cross-site request refused: the MCP endpoint answers agents, not pages from ${origin}`,
    );
  }
  const actor = services.config.authless || bearerToken(req) ? await resolveActor(ctx) : null;
  if (actor) return actor;
  if (countedByProcedure) await enforceRateLimit(ctx);
  throw unauthorized();
}
