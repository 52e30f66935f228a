import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { HttpApp } from './rest/rest-first.js';

/**
 * One GET of `path` through the app's own listener, on a loopback port of
 * its own, before the service listens. The startup warm-up lists in-process
 * (server/discovery/warm-up.ts), which leaves the HTTP path itself (the
 * request observation, express, the REST adapter, writing the answer) to be
 * compiled by the first user's request: ~5 ms of a restart's first page (of
 * 16, 100,000 queues, a loaded host). It is counted in the HTTP metrics as
 * any request is. Bounded by `budgetMs`; a failure only skips it.
 */
export async function warmUpHttp(app: HttpApp, path: string, budgetMs = 1000): Promise<void> {
  const server = createServer(app.serverOptions, app.listener);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', resolve);
    });
    const { port } = server.address() as AddressInfo;
    const response = await fetch(`http://127.0.0.1:${port}${path}`, { signal: AbortSignal.timeout(budgetMs) });
    await response.arrayBuffer();
  } catch {
    // No loopback, a slow answer: the first request compiles the path, as before.
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}
