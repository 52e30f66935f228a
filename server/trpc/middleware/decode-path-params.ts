import { AppError } from '../../../contracts/app-error.js';
import { middleware } from '../init.js';

const pathParamPattern = /\{(.+?)\}/g;

function decodeSegment(name: string, value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return decodeURIComponent(value);
  } catch {
    throw new AppError('BAD_REQUEST', `Path parameter ${name} is not valid percent-encoding`);
  }
}

/**
 * The REST adapter hands path parameters over still percent-encoded. Queue
 * names and Redis keys carry spaces, `:`, `/` and `%`, so decode them here,
 * once, for REST calls only: tRPC input arrives decoded already.
 */
export const decodePathParams = middleware(async ({ ctx, meta, getRawInput, next }) => {
  const path = meta?.openapi?.path;
  if (ctx.transport !== 'rest' || !path?.includes('{')) return next();
  const raw = (await getRawInput()) as Record<string, unknown> | undefined;
  if (!raw || typeof raw !== 'object') return next();
  const decoded = { ...raw };
  for (const [, name] of path.matchAll(pathParamPattern)) {
    decoded[name!] = decodeSegment(name!, raw[name!]);
  }
  return next({ getRawInput: async () => decoded });
});
