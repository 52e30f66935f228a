import type { Exchange } from './http-exchange.js';

/** Where a secret shows up (raw or percent-encoded) in captured responses (status line, headers, body) or log lines. */
export function findSecret(secret: string, exchanges: readonly Exchange[], logs: readonly string[]): string[] {
  const forms = [...new Set([secret, encodeURIComponent(secret)])];
  const contains = (text: string) => forms.some((form) => text.includes(form));
  const places: string[] = [];
  for (const exchange of exchanges) {
    if (contains(JSON.stringify(exchange.headers)) || contains(exchange.body))
      places.push(`response to ${exchange.request.method} ${exchange.request.path.slice(0, 120)}`);
  }
  logs.forEach((line, index) => {
    if (contains(line)) places.push(`log line ${index}: ${line.slice(0, 200)}`);
  });
  return places;
}
