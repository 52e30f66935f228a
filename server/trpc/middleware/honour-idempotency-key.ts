import { createHash } from 'node:crypto';
import { AppError } from '../../../contracts/app-error.js';
import type { Actor } from '../../auth/actor.js';
import { successStatusOf } from '../../http/success-status.js';
import { claimKey, keepAnswer, releaseKey, type IdempotencyScope } from '../idempotency/idempotency-records.js';
import type { Context } from '../context.js';
import type { ProcedureMeta } from '../init.js';
import type { Step } from '../middleware-chain.js';

export const idempotencyHeader = 'idempotency-key';
const validKey = /^[\x21-\x7e]{1,255}$/;

/** Routes that honour `Idempotency-Key`: job adds (`meta.idempotent`) and every route that may run as a task. */
export const honoursIdempotencyKey = (meta: ProcedureMeta | undefined): boolean =>
  meta?.idempotent === true || meta?.runsAsTask === true;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** JSON with keys sorted at every depth: the same input hashes the same whatever the order of its fields. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    return `{${Object.keys(record)
      .sort()
      .filter((key) => record[key] !== undefined)
      .map((key) => `${JSON.stringify(key)}:${canonical(record[key])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

const actorKeyOf = (actor: Actor) => `${actor.kind}:${actor.userId ?? ''}:${actor.tokenId ?? ''}`;

function scopeOf(actor: Actor, route: string, key: string, input: unknown): IdempotencyScope {
  return {
    id: sha256(canonical([actor.organizationId, route, actorKeyOf(actor), key])),
    organizationId: actor.organizationId,
    route,
    requestHash: sha256(canonical(input ?? null)),
  };
}

function keyOf(ctx: Context): string | undefined {
  const header = ctx.req?.headers[idempotencyHeader];
  if (header === undefined) return undefined;
  const key = Array.isArray(header) ? header[0] : header;
  if (!key || !validKey.test(key))
    throw new AppError('VALIDATION_FAILED', 'Idempotency-Key must be 1 to 255 visible ASCII characters');
  return key;
}

/**
 * `Idempotency-Key` on a job add or a task creation: the first request with a
 * key (per organization, route and actor) runs and its answer is kept 24
 * hours; a retry with the same key and the same input gets that answer again
 * (`Idempotency-Replayed: true`) and changes nothing; the same key with
 * another input is 422 IDEMPOTENCY_KEY_REUSED; a duplicate arriving while the
 * first still runs waits for it (409 IDEMPOTENCY_KEY_IN_USE after 10 s). A
 * failed first request keeps nothing, so its retry runs.
 */
export const honourIdempotencyKey: Step<Context & { actor: Actor }> = async ({
  ctx,
  meta,
  path,
  getRawInput,
  next,
}) => {
  if (!honoursIdempotencyKey(meta)) return next();
  const key = keyOf(ctx);
  if (key === undefined) return next();
  const persistence = ctx.services.persistence;
  const scope = scopeOf(ctx.actor, path, key, await getRawInput());
  const claim = await claimKey(() => persistence.fork(), scope);
  if (claim.kind === 'mismatch')
    throw new AppError(
      'IDEMPOTENCY_KEY_REUSED',
      `Idempotency-Key "${key}" was used with another request on this route; use a new key for a new request`,
    );
  if (claim.kind === 'busy')
    throw new AppError(
      'IDEMPOTENCY_KEY_IN_USE',
      `A request with Idempotency-Key "${key}" is still running; retry once it has answered`,
    );
  if (claim.kind === 'replay') {
    ctx.res?.setHeader('Idempotency-Replayed', 'true');
    return { ok: true, data: claim.body };
  }
  const result = await next();
  if (result.ok) await keepAnswer(persistence.fork(), scope.id, successStatusOf(meta, result.data), result.data);
  else await releaseKey(persistence.fork(), scope.id);
  return result;
};
