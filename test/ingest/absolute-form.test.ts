import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootApp, type TestApp } from '../helpers/app.js';
import { startUpstream } from './support/analytics-upstream.js';

/** One raw HTTP/1.1 request over TCP (fetch cannot send an absolute-form target); the status line of the answer. */
function rawRequest(serviceUrl: string, requestLine: string): Promise<string> {
  const { hostname, port } = new URL(serviceUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let answer = '';
    socket.setTimeout(5000, () => socket.destroy(new Error('no answer')));
    socket.on('data', (chunk) => (answer += chunk.toString('latin1')));
    socket.on('end', () => resolve(answer.split('\r\n')[0]!));
    socket.on('error', reject);
    socket.write(`${requestLine}\r\nHost: ${hostname}:${port}\r\nConnection: close\r\n\r\n`);
  });
}

describe('/ingest with an absolute-form request target', () => {
  let upstream: Awaited<ReturnType<typeof startUpstream>>;
  let app: TestApp;
  beforeAll(async () => {
    upstream = await startUpstream();
    app = await bootApp({
      env: { SERVICE_AUTHLESS: 'true', ANALYTICS_KEY: 'phc_test', ANALYTICS_UPSTREAM_URL: `${upstream.url}/` },
    });
  });
  afterAll(async () => {
    await app.close();
    await upstream.close();
  });

  it.each([
    ['GET http://evil.example/ingest/x?q=1 HTTP/1.1', '/x?q=1'],
    ['GET http://evil.example:8080/ingest/decide/?v=3 HTTP/1.1', '/decide/?v=3'],
    ['GET https://user:pw@evil.example/ingest//evil.example/y HTTP/1.1', '//evil.example/y'],
  ])('%s reaches the configured upstream as its path only (%s)', async (requestLine, path) => {
    const before = upstream.received.length;
    const status = await rawRequest(app.url, requestLine);
    expect(status).toBe('HTTP/1.1 201 Created');
    expect(upstream.received.slice(before).map(({ url, headers }) => ({ url, host: headers.host }))).toEqual([
      { url: path, host: new URL(upstream.url).host },
    ]);
  });

  it('still passes an origin-form target as it is', async () => {
    const before = upstream.received.length;
    expect(await rawRequest(app.url, 'GET /ingest/e/?ip=1 HTTP/1.1')).toBe('HTTP/1.1 201 Created');
    expect(upstream.received.slice(before).map(({ url }) => url)).toEqual(['/e/?ip=1']);
  });
});
