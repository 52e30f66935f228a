import http from 'node:http';

/** How a client's exchange ended: its status, or the connection error that cut it (a reset). */
export interface Outcome {
  status: number | null;
  error: string | null;
  text: string;
}

/** One agent per scenario, with keep-alive as real clients use it. */
export const keepAliveAgent = () => new http.Agent({ keepAlive: true, maxSockets: Infinity });

/** An SSE client: `open` resolves once subscribed; `ended` once the stream closed, however it closed. */
export function eventStream(url: string, agent: http.Agent): { open: Promise<void>; ended: Promise<Outcome> } {
  let subscribed: () => void;
  const open = new Promise<void>((resolve) => (subscribed = resolve));
  // A stream refused or cut before it subscribed still settles `open`; its `ended` says how it went.
  const ended: Promise<Outcome> = new Promise<Outcome>((resolve) => {
    let text = '';
    const request = http.get(url, { agent, headers: { accept: 'text/event-stream' } }, (response) => {
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        text += chunk;
        if (text.includes(': subscribed')) subscribed();
      });
      response.on('end', () => resolve({ status: response.statusCode ?? null, error: null, text }));
      response.on('error', (error) => resolve({ status: response.statusCode ?? null, error: error.message, text }));
    });
    request.on('error', (error) => resolve({ status: null, error: error.message, text }));
  }).finally(() => subscribed());
  return { open, ended };
}

/**
 * A request whose body arrives in two halves: `finish` sends the second, so the request is in flight
 * (the service has its headers and waits for its body) for as long as the caller chooses.
 */
export function halfSentPost(
  url: string,
  body: unknown,
  agent: http.Agent,
): { finish(): void; answered: Promise<Outcome & { at: number }> } {
  const bytes = Buffer.from(JSON.stringify(body));
  const half = Math.floor(bytes.length / 2);
  const request = http.request(url, {
    method: 'POST',
    agent,
    headers: { 'content-type': 'application/json', 'content-length': bytes.length },
  });
  const answered = new Promise<Outcome & { at: number }>((resolve) => {
    request.on('response', (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? null, error: null, text, at: Date.now() }));
      response.on('error', (error) =>
        resolve({ status: response.statusCode ?? null, error: error.message, text, at: Date.now() }),
      );
    });
    request.on('error', (error) => resolve({ status: null, error: error.message, text: '', at: Date.now() }));
  });
  request.write(bytes.subarray(0, half));
  return { finish: () => request.end(bytes.subarray(half)), answered };
}
