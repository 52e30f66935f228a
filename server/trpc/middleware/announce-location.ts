import { apiBasePath } from '../../http/api-base-path.js';
import type { ProcedureMeta } from '../init.js';
import type { Step } from '../middleware-chain.js';

const placeholder = /\{(\w+)\}/g;

/** Where a route run as a task (`meta.runsAsTask`) says its task lives, when it answered `{ taskId }`. */
export const taskLocation = '/c/{connectionId}/tasks/{taskId}';

/** The `Location` template of a route: its own, or a task's. */
export const locationTemplateOf = (meta: ProcedureMeta | undefined): string | undefined =>
  meta?.location ?? (meta?.runsAsTask ? taskLocation : undefined);

const asSegment = (value: unknown): string | undefined =>
  typeof value === 'string' && value.length > 0
    ? encodeURIComponent(value)
    : typeof value === 'number'
      ? String(value)
      : undefined;

/**
 * The path a `meta.location` template names for one call: each placeholder
 * from the answer's field of that name, else the input's; undefined when one
 * is missing (a task route answered synchronously has no `taskId`).
 */
export function locationOf(template: string, data: unknown, input: unknown): string | undefined {
  const answer = (data ?? {}) as Record<string, unknown>;
  const given = (input ?? {}) as Record<string, unknown>;
  let missing = false;
  const path = template.replace(placeholder, (_match, name: string) => {
    const value = asSegment(answer[name]) ?? asSegment(given[name]);
    if (value === undefined) missing = true;
    return value ?? '';
  });
  return missing ? undefined : `${apiBasePath}${path}`;
}

/**
 * REST answers of routes with `meta.location` (creates) or run as tasks say where the
 * resource they made lives, in `Location`. Runs before the idempotency step,
 * so a replayed answer carries it too.
 */
export const announceLocation: Step = async ({ ctx, meta, getRawInput, next }) => {
  const template = locationTemplateOf(meta);
  // Reads (the hot path) have none: they pass straight on.
  if (!template || ctx.transport !== 'rest') return next();
  const result = await next();
  if (!result.ok || !ctx.res || ctx.res.headersSent) return result;
  const location = locationOf(template, result.data, await getRawInput());
  if (location) ctx.res.setHeader('Location', location);
  return result;
};
