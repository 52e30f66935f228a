import type { IncomingMessage } from 'node:http';

const answeredAs = 'application/json, text/event-stream';

/**
 * This endpoint answers JSON whatever the client accepts (stateless, `enableJsonResponse`), yet the SDK
 * refuses a request whose Accept lacks either type with a 406 outside the one error shape. So the header
 * is set to what the SDK checks, in `headers` and in `rawHeaders` (which its request adapter reads).
 */
export function acceptJsonAnswers(req: IncomingMessage): void {
  req.headers.accept = answeredAs;
  const raw: string[] = [];
  for (let at = 0; at + 1 < req.rawHeaders.length; at += 2) {
    const name = req.rawHeaders[at]!;
    if (name.toLowerCase() !== 'accept') raw.push(name, req.rawHeaders[at + 1]!);
  }
  raw.push('Accept', answeredAs);
  req.rawHeaders = raw;
}
