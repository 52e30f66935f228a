import type { Response } from 'express';
import { AppError } from '../../contracts/app-error.js';
import type { Context } from '../trpc/context.js';

/** Bodies over this size are large: they wait for the body budget, and their sending has a deadline. */
export const largeBodyBytes = 1024 * 1024;
/** The slowest reading a large body is sent at: a reader slower than this loses its connection. */
const slowestReadBytesPerSecond = 256 * 1024;
const sendGraceMs = 10_000;

/**
 * Holds room for a large body of `bytes` for the response of this call, in two parts: the body's
 * bytes in the body budget until the response closes (a slow reader holds them that long), and one
 * of the few builds at once (a body is read, decoded and serialized at several times its size) until
 * the call's answer is serialized. Answers the function to call once the answer is built: it gives
 * the build back on the next turn of the event loop, after the transport serialized the answer
 * (its validation and JSON.stringify run in the same turn). Without a response (MCP, in-process)
 * the bytes come back with the build.
 */
export async function holdForResponse(ctx: Context, bytes: number): Promise<() => void> {
  const res = ctx.res;
  const gone = new AbortController();
  res?.once('close', () => gone.abort());
  const { bodyBudget, bodyBuilds } = ctx.services;
  const release = await bodyBudget.acquire(bytes, gone.signal);
  const built = await bodyBuilds.acquire(1, gone.signal).catch((error: unknown) => {
    release();
    throw error;
  });
  if (res && !gone.signal.aborted) res.once('close', release);
  return () =>
    setImmediate(() => {
      built();
      if (!res) release();
    });
}

/**
 * Gives a large body's sending a deadline (10 s plus its size at 256 KiB/s): a reader that does
 * not keep up loses its connection, and the body's memory is freed, instead of holding it for as long
 * as it pleases.
 */
export function limitSendTime(res: Response, bytes: number): void {
  if (bytes <= largeBodyBytes) return;
  const deadline = setTimeout(() => res.destroy(), sendGraceMs + (bytes / slowestReadBytesPerSecond) * 1000);
  deadline.unref();
  res.once('close', () => clearTimeout(deadline));
}

/** The 4xx for an answer over SERVICE_MAX_RESPONSE_BYTES, naming the route that reads it in parts. */
export function responseTooLarge(
  what: string,
  bytes: number,
  maxBytes: number,
  readInParts: string,
  details: Record<string, unknown> = {},
): AppError {
  return new AppError(
    'RESPONSE_TOO_LARGE',
    `${what} is ${bytes} bytes, over SERVICE_MAX_RESPONSE_BYTES (${maxBytes}); read it in parts: ${readInParts}`,
    { bytes, maxBytes, readInParts, ...details },
  );
}
