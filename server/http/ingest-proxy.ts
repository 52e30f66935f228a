import { Readable, Transform } from 'node:stream';
import type { Request, Response } from 'express';
import { withinRateLimit } from '../rate-limit/limit-request.js';
import type { Services } from '../services.js';
import { sendError } from './error-body.js';
import { maxBodyBytes } from './json-body.js';

export const ingestPath = '/ingest';
export const ingestTimeoutMs = 10_000;

export interface IngestProxyOptions {
  /** ANALYTICS_UPSTREAM_URL: the analytics host `/ingest/*` stands in for. */
  upstreamUrl: string;
  timeoutMs?: number | undefined;
}

/**
 * Request headers never passed on: credentials of this service (the browser
 * sends our cookies and may send our bearer token to /ingest), hop-by-hop
 * headers, and headers the proxy itself decides (host, length, forwarding).
 */
const droppedRequestHeaders = new Set([
  'cookie',
  'authorization',
  'host',
  'connection',
  'keep-alive',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'content-length',
  'expect',
  'forwarded',
  'x-forwarded-for',
  'x-forwarded-host',
  'x-forwarded-proto',
  'x-real-ip',
  'origin',
  'referer',
]);

/**
 * fetch has already decoded the body, so its encoding and length no longer hold; cookies would land on our origin;
 * the headers every response of ours carries (server/http/security-headers.ts) stay ours.
 */
const droppedResponseHeaders = new Set([
  'set-cookie',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-encoding',
  'content-length',
  'trailer',
  'upgrade',
  'x-content-type-options',
  'referrer-policy',
]);

class BodyTooLarge extends Error {}

function forwardedHeaders(req: Request): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || droppedRequestHeaders.has(name)) continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  }
  headers.set('x-forwarded-for', req.ip ?? req.socket.remoteAddress ?? '');
  return headers;
}

/** The request body as a stream that fails once it passes the 1 MB limit. */
function limitedBody(req: Request): ReadableStream<Uint8Array> {
  let seen = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      done(seen > maxBodyBytes ? new BodyTooLarge() : null, chunk);
    },
  });
  req.on('error', (error) => counter.destroy(error));
  return Readable.toWeb(req.pipe(counter)) as ReadableStream<Uint8Array>;
}

/**
 * The request target in origin form (`/path?query`), whatever form it came
 * in: an absolute-form target (`GET http://evil.example/ingest/x`) keeps its
 * path and query and loses its scheme and authority, so the upstream is
 * always the configured host.
 */
export function originForm(target: string): string {
  if (target.startsWith('/')) return target;
  try {
    const parsed = new URL(target);
    return `${parsed.pathname}${parsed.search}`;
  } catch {
    return '/';
  }
}

function hasBody(req: Request): boolean {
  return req.method !== 'GET' && req.method !== 'HEAD';
}

async function relayResponse(upstream: globalThis.Response, res: Response): Promise<void> {
  res.status(upstream.status);
  upstream.headers.forEach((value, name) => {
    if (!droppedResponseHeaders.has(name)) res.setHeader(name, value);
  });
  if (!upstream.body) return void res.end();
  await new Promise<void>((resolve, reject) => {
    Readable.fromWeb(upstream.body as import('node:stream/web').ReadableStream)
      .on('error', reject)
      .pipe(res)
      .on('finish', resolve)
      .on('error', reject);
  });
}

/**
 * `/ingest/*` → ANALYTICS_UPSTREAM_URL: the browser's analytics calls stay on
 * this origin (ad blockers, CSP) and reach the analytics host without our
 * cookies or tokens. Method, path, query and body pass through, streamed both
 * ways; the host is always ANALYTICS_UPSTREAM_URL's. Not authenticated; rate
 * limited like the API.
 */
export function ingestProxy(services: Services, options: IngestProxyOptions) {
  const upstreamBase = options.upstreamUrl.replace(/\/+$/, '');
  const timeoutMs = options.timeoutMs ?? ingestTimeoutMs;
  return async (req: Request, res: Response) => {
    if (!(await withinRateLimit(services, req, res))) return;
    if (Number(req.headers['content-length'] ?? 0) > maxBodyBytes) {
      return sendError(res, 'PAYLOAD_TOO_LARGE', `The body exceeds ${maxBodyBytes} bytes`);
    }
    const clientGone = new AbortController();
    res.on('close', () => clientGone.abort());
    try {
      const upstream = await fetch(`${upstreamBase}${originForm(req.url)}`, {
        method: req.method,
        headers: forwardedHeaders(req),
        body: hasBody(req) ? limitedBody(req) : undefined,
        duplex: 'half',
        redirect: 'manual',
        signal: AbortSignal.any([AbortSignal.timeout(timeoutMs), clientGone.signal]),
      } as RequestInit);
      await relayResponse(upstream, res);
    } catch (error) {
      if (res.headersSent) return void res.destroy();
      if (error instanceof BodyTooLarge || (error as { cause?: unknown }).cause instanceof BodyTooLarge) {
        return sendError(res, 'PAYLOAD_TOO_LARGE', `The body exceeds ${maxBodyBytes} bytes`);
      }
      const reason =
        (error as Error).name === 'TimeoutError' ? `no answer within ${timeoutMs / 1000} s` : 'unreachable';
      req.log.warn({ err: (error as Error).message, upstream: upstreamBase }, 'analytics upstream failed');
      sendError(res, 'UPSTREAM_UNAVAILABLE', `The analytics upstream is ${reason}`);
    }
  };
}
