import { createServer, type Server, type ServerResponse } from 'node:http';
import { Server as NetServer, type AddressInfo } from 'node:net';
import type { HttpApp } from './rest/rest-first.js';

export interface RunningServer {
  server: Server;
  url: string;
  /** The port actually bound (PORT=0 picks one). */
  port: number;
  /** Stops accepting, lets in-flight requests finish, then resolves. */
  close(): Promise<void>;
  /**
   * Stops accepting new connections and keeps serving the open ones, each response now closing its
   * connection (`Connection: close`), so no client reuses a socket that is about to go.
   */
  stopAccepting(): void;
  /** Once stopAccepting: resolves when every in-flight request has been answered and its connection closed, idle ones included. */
  drained(): Promise<void>;
  /** Requests being answered now. */
  readonly inFlight: number;
}

/** Ends keep-alive on every response not yet started, and on every later one, while draining. */
function trackResponses(server: Server, draining: () => boolean): Set<ServerResponse> {
  const open = new Set<ServerResponse>();
  server.prependListener('request', (_req, res: ServerResponse) => {
    if (draining()) res.shouldKeepAlive = false;
    open.add(res);
    res.once('close', () => open.delete(res));
  });
  return open;
}

/** Listens and resolves once bound; rejects (e.g. EADDRINUSE) instead of failing later. */
export function listen(app: HttpApp, port: number, host: string): Promise<RunningServer> {
  const server = createServer(app.serverOptions, app.listener);
  let draining = false;
  let closed: Promise<void> | undefined;
  const responses = trackResponses(server, () => draining);
  const stopAccepting = () => {
    if (draining) return;
    draining = true;
    for (const res of responses) if (!res.headersSent) res.shouldKeepAlive = false;
    // net.Server's close only stops the listener: http.Server's also drops idle keep-alive sockets at once,
    // where a request a client has just sent would be reset. Those go last, once in-flight requests are answered.
    closed = new Promise((done, fail) =>
      NetServer.prototype.close.call(server, (error?: Error) => (error ? fail(error) : done())),
    );
  };
  const drained = async () => {
    stopAccepting();
    const idleSweep = setInterval(() => responses.size === 0 && server.closeIdleConnections(), 50);
    try {
      await closed;
    } finally {
      clearInterval(idleSweep);
    }
  };
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      const address = server.address() as AddressInfo;
      const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
      resolve({
        server,
        port: address.port,
        url: `http://${shownHost === '0.0.0.0' ? '127.0.0.1' : shownHost}:${address.port}`,
        close: drained,
        stopAccepting,
        drained,
        get inFlight() {
          return responses.size;
        },
      });
    });
  });
}
