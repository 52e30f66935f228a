import net from 'node:net';

/**
 * A loopback TCP proxy a test can cut (connections refused, open ones reset) and restore on the same
 * port, or silence (nothing forwarded either way, nothing closed: a network that stops answering) and resume.
 */
export interface TcpProxy {
  readonly port: number;
  cut(): Promise<void>;
  restore(): Promise<void>;
  silence(): void;
  /** Forwards again, what was held included. */
  resume(): void;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<net.Socket>();
  let silent = false;
  const track = (socket: net.Socket) => {
    sockets.add(socket);
    if (silent) socket.pause();
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  };
  const server = net.createServer((client) => {
    const upstream = net.connect(target);
    track(client);
    track(upstream);
    client.pipe(upstream).pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  const stop = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      if (!server.listening) return resolve();
      server.close(() => resolve());
    });
  await listen(0);
  const port = (server.address() as net.AddressInfo).port;
  const holdAll = (hold: boolean) => {
    silent = hold;
    for (const socket of sockets)
      if (hold) socket.pause();
      else socket.resume();
  };
  return {
    port,
    cut: stop,
    restore: () => listen(port),
    silence: () => holdAll(true),
    resume: () => holdAll(false),
    close: stop,
  };
}
