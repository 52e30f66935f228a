import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

interface Received {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

/** A stand-in analytics host on loopback: records what reaches it; a few paths misbehave on purpose. */
export async function startUpstream() {
  const received: Received[] = [];
  let releaseStream: () => void = () => {};
  const server: Server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    try {
      for await (const chunk of req) chunks.push(chunk as Buffer);
    } catch {
      return; // the proxy cut an upload short (over the limit)
    }
    received.push({ method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(chunks) });
    if (req.url?.startsWith('/slow')) return; // never answers
    if (req.url?.startsWith('/stream')) {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('first part;');
      releaseStream = () => res.end('second part');
      return;
    }
    res.writeHead(201, {
      'content-type': 'application/json',
      'x-upstream': 'yes',
      'set-cookie': 'tracker=1; Path=/',
      'referrer-policy': 'unsafe-url',
    });
    res.end(JSON.stringify({ status: 1 }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    release: () => releaseStream(),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
