import http, { type IncomingHttpHeaders } from 'node:http';
import { request } from '../../helpers/app.js';

/** A request as it goes on the wire: the path is sent exactly as written (`..`, `%zz` and all). */
export interface RawRequest {
  /** What the request gets wrong, for failure messages. */
  label: string;
  method: string;
  /** Path and query under the origin, e.g. `/api/c/x/queues/..?page=-1`. */
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

export interface Exchange {
  request: RawRequest;
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
  ms: number;
  /** Set when no response came (timeout, reset). */
  error?: string;
}

/**
 * Sends one request with node:http rather than fetch: fetch normalises `..`
 * segments and refuses some methods and bodies the suite needs to send. An
 * event stream is closed as soon as its headers arrive.
 */
export function sendRaw(
  origin: URL,
  request: RawRequest,
  { timeoutMs = 10_000, agent }: { timeoutMs?: number; agent?: http.Agent } = {},
): Promise<Exchange> {
  const started = performance.now();
  const body = request.body === undefined ? undefined : Buffer.from(request.body);
  return new Promise((resolve) => {
    const done = (exchange: Omit<Exchange, 'request' | 'ms'>) =>
      resolve({ request, ms: performance.now() - started, ...exchange });
    const outgoing = http.request(
      {
        host: origin.hostname,
        port: origin.port,
        method: request.method,
        path: request.path,
        agent,
        headers: { ...(body ? { 'content-length': String(body.length) } : {}), ...request.headers },
        timeout: timeoutMs,
      },
      (response) => {
        const chunks: Buffer[] = [];
        const finish = () =>
          done({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          });
        if (String(response.headers['content-type']).startsWith('text/event-stream')) {
          response.destroy();
          return finish();
        }
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', finish);
        response.on('error', (error) => done({ status: 0, headers: {}, body: '', error: error.message }));
      },
    );
    outgoing.on('timeout', () => outgoing.destroy(new Error(`no response within ${timeoutMs} ms`)));
    outgoing.on('error', (error) => done({ status: 0, headers: {}, body: '', error: error.message }));
    outgoing.end(body);
  });
}

/** Runs `work` over `items` with at most `concurrency` at a time, keeping the order of results. */
export async function mapPooled<T, R>(
  items: readonly T[],
  concurrency: number,
  work: (item: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let nextIndex = 0;
  const lane = async () => {
    while (nextIndex < items.length) {
      const index = nextIndex++;
      results[index] = await work(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, lane));
  return results;
}

/** Every response a test saw, kept whole so the secrets check can read headers and bodies. */
export class ExchangeLog {
  readonly exchanges: Exchange[] = [];

  record(exchange: Exchange): Exchange {
    this.exchanges.push(exchange);
    return exchange;
  }

  /** `request()` of the test helpers, recording what came back (for the ordinary calls a test makes besides raw ones). */
  async fetch(url: string, init: Parameters<typeof request>[1] = {}): Promise<Awaited<ReturnType<typeof request>>> {
    const started = performance.now();
    const response = await request(url, init);
    this.record({
      request: { label: 'request', method: init.method ?? 'GET', path: new URL(url).pathname },
      status: response.status,
      headers: Object.fromEntries(response.headers),
      body: typeof response.body === 'string' ? response.body : JSON.stringify(response.body),
      ms: performance.now() - started,
    });
    return response;
  }
}
