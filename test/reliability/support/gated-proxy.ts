import net from 'node:net';

/**
 * A loopback TCP proxy that holds the first connections at a gate (accepted,
 * nothing forwarded) until `holdUntil` of them wait or `maxHoldMs` has passed
 * since the first arrived (keep it under the client's connect timeout), then
 * lets them all through at once; later connections pass straight through. Two
 * processes' first database statements then start together: a true race.
 */
export interface GatedProxy {
  readonly port: number;
  /** Resolves with how many connections the gate held when it opened. */
  readonly opened: Promise<number>;
  close(): Promise<void>;
}

export async function startGatedProxy(
  target: { host: string; port: number },
  options: { holdUntil: number; maxHoldMs: number },
): Promise<GatedProxy> {
  const sockets = new Set<net.Socket>();
  const held: net.Socket[] = [];
  let open = false;
  let announce!: (count: number) => void;
  const opened = new Promise<number>((resolve) => (announce = resolve));

  const track = (socket: net.Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  };
  const forward = (client: net.Socket) => {
    const upstream = net.connect(target);
    track(upstream);
    client.pipe(upstream).pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  };
  const openGate = () => {
    if (open) return;
    open = true;
    clearTimeout(timer);
    announce(held.length);
    for (const client of held.splice(0)) forward(client);
  };
  let timer: NodeJS.Timeout | undefined;

  const server = net.createServer((client) => {
    track(client);
    if (open) return forward(client);
    // Paused, so what the client sends waits in the socket until the gate opens.
    client.pause();
    held.push(client);
    timer ??= setTimeout(openGate, options.maxHoldMs);
    if (held.length >= options.holdUntil) openGate();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    opened,
    close: () =>
      new Promise<void>((resolve) => {
        clearTimeout(timer);
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
