import { createServer as createHttpServer } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type Server } from 'node:net';

/** What listens on a loopback port: the kinds a port scanner would tell apart. */
export type PortKind = 'closed' | 'silent' | 'hangs up' | 'banner' | 'http' | 'redis';

export interface PortKinds {
  ports: Record<PortKind, number>;
  close(): Promise<void>;
}

async function listening<T extends Server>(server: T): Promise<T> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

const portOf = (server: Server) => (server.address() as AddressInfo).port;

/**
 * Real loopback listeners of each kind: a closed port (bound, then
 * released), a TCP server that never answers, one that hangs up at once, one
 * that greets in another protocol (an SSH banner), an HTTP server answering
 * 404, and the test Redis.
 */
export async function startPortKinds(): Promise<PortKinds> {
  const sockets = new Set<import('node:net').Socket>();
  const keep = (socket: import('node:net').Socket) =>
    void sockets.add(socket.on('close', () => sockets.delete(socket)));
  const released = await listening(createTcpServer());
  const closedPort = portOf(released);
  await new Promise((resolve) => released.close(resolve));
  const servers: Server[] = [
    await listening(createTcpServer(keep)),
    await listening(createTcpServer((socket) => socket.destroy())),
    await listening(
      createTcpServer((socket) => {
        keep(socket);
        socket.write('SSH-2.0-OpenSSH_9.6\r\n');
      }),
    ),
    await listening(
      createHttpServer((req, res) =>
        req.resume().on('end', () => res.writeHead(404, { 'content-type': 'text/plain' }).end('not here')),
      ),
    ),
  ];
  const [silent, hangsUp, banner, http] = servers.map(portOf) as [number, number, number, number];
  return {
    ports: { closed: closedPort, silent, 'hangs up': hangsUp, banner, http, redis: 6379 },
    async close() {
      for (const socket of sockets) socket.destroy();
      await Promise.all(
        servers.map(
          (server) =>
            new Promise((resolve) => {
              (server as Server & { closeAllConnections?: () => void }).closeAllConnections?.();
              server.close(resolve);
            }),
        ),
      );
    },
  };
}
