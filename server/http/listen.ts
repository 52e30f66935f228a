import { createServer, type Server } from 'node:http';
import type { HttpApp } from './rest/rest-first.js';
import type { AddressInfo } from 'node:net';

export interface RunningServer {
  server: Server;
  url: string;
  /** The port actually bound (PORT=0 picks one). */
  port: number;
  /** Stops accepting, lets in-flight requests finish, then resolves. */
  close(): Promise<void>;
}

/** Listens and resolves once bound; rejects (e.g. EADDRINUSE) instead of failing later. */
export function listen(app: HttpApp, port: number, host: string): Promise<RunningServer> {
  const server = createServer(app.serverOptions, app.listener);
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
        close: () =>
          new Promise<void>((done, fail) => {
            server.close((error) => (error ? fail(error) : done()));
            server.closeIdleConnections();
          }),
      });
    });
  });
}
