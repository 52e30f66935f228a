import { createTRPCClient, httpLink, TRPCClientError, type TRPCClient, type TRPCLink } from '@trpc/client';
import { observable } from '@trpc/server/observable';
import type { AppRouter, QueueEvent } from './api-types.js';
import { BullpenError } from './errors.js';
import { readSse } from './sse.js';

export type { AppRouter, QueueEvent };
export { BullpenError, isBullpenError } from './errors.js';
export type { ErrorCode } from './api-types.js';

export interface BullpenClientOptions {
  /** Where the service runs, e.g. `http://localhost:3000`. */
  baseUrl: string;
  /** An API token, sent as `Authorization: Bearer <token>`. */
  token?: string;
  /** Extra headers for every request (e.g. `x-organization-id`). */
  headers?: Record<string, string>;
  /**
   * Why you make the changes this client makes, sent as `Bullpen-Reason`:
   * kept in their audit events, and required for the changes the service's
   * SERVICE_REQUIRE_REASON names (REASON_REQUIRED otherwise).
   */
  reason?: string;
  fetch?: typeof globalThis.fetch;
}

export interface WatchQueueOptions {
  connectionId: string;
  queueName: string;
  /** BullMQ prefix, when not the connection's first. */
  prefix?: string;
  /** Include completed jobs' return values. */
  includeData?: boolean;
  /** Stops the stream (and the iteration) when aborted. */
  signal?: AbortSignal;
}

export type BullpenClient = TRPCClient<AppRouter> & {
  /** Live events of one queue, in order, as an async iterator (Server-Sent Events underneath). */
  watchQueue(options: WatchQueueOptions): AsyncGenerator<QueueEvent>;
};

/**
 * A reason as a header value: its UTF-8 bytes, one character each (fetch
 * sends header characters as single bytes and refuses any above U+00FF); the
 * service reads the bytes back as UTF-8, so a reason may be in any language.
 */
export function reasonHeaderValue(reason: string): string {
  return String.fromCharCode(...new TextEncoder().encode(reason.replace(/[\r\n]+/g, ' ').trim()));
}

function requestHeaders(options: BullpenClientOptions): Record<string, string> {
  return {
    ...options.headers,
    ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
    ...(options.reason ? { 'bullpen-reason': reasonHeaderValue(options.reason) } : {}),
  };
}

/** Rejects every failed call with a BullpenError carrying code, HTTP status and route fields. */
const bullpenErrors: TRPCLink<AppRouter> =
  () =>
  ({ next, op }) =>
    observable((observer) =>
      next(op).subscribe({
        next: (value) => observer.next(value),
        error: (error) => observer.error(error instanceof TRPCClientError ? new BullpenError(error) : error),
        complete: () => observer.complete(),
      }),
    );

async function* watchQueue(options: BullpenClientOptions, watch: WatchQueueOptions): AsyncGenerator<QueueEvent> {
  const query = new URLSearchParams();
  if (watch.prefix) query.set('prefix', watch.prefix);
  if (watch.includeData) query.set('includeData', 'true');
  const path = `/api/c/${encodeURIComponent(watch.connectionId)}/queues/${encodeURIComponent(watch.queueName)}/events`;
  const response = await (options.fetch ?? fetch)(`${baseUrlOf(options)}${path}?${query}`, {
    headers: { accept: 'text/event-stream', ...requestHeaders(options) },
    signal: watch.signal ?? null,
  });
  if (!response.ok || !response.body) {
    const body = (await response.json().catch(() => ({}))) as { message?: string; code?: string };
    throw Object.assign(new Error(body.message ?? `HTTP ${response.status}`), {
      code: body.code,
      status: response.status,
    });
  }
  try {
    for await (const message of readSse(response.body)) yield JSON.parse(message.data) as QueueEvent;
  } catch (error) {
    if (!watch.signal?.aborted) throw error;
  }
}

const baseUrlOf = (options: BullpenClientOptions) => options.baseUrl.replace(/\/$/, '');

/** A typed client over every Bullpen procedure (tRPC, at `/api/trpc`), plus `watchQueue`. */
export function createBullpenClient(options: BullpenClientOptions): BullpenClient {
  const trpc = createTRPCClient<AppRouter>({
    links: [
      bullpenErrors,
      httpLink({
        url: `${baseUrlOf(options)}/api/trpc`,
        ...(options.fetch ? { fetch: options.fetch } : {}),
        headers: () => requestHeaders(options),
      }),
    ],
  });
  const watch = (watchOptions: WatchQueueOptions) => watchQueue(options, watchOptions);
  // The tRPC client is a proxy that turns any property into a procedure path; answer watchQueue first.
  return new Proxy(trpc, {
    get: (target, property, receiver) => (property === 'watchQueue' ? watch : Reflect.get(target, property, receiver)),
  }) as BullpenClient;
}
