import autocannon from 'autocannon';
import { cpuMs } from './cpu.js';

export interface LoadFigures {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  non2xx: number;
  /** Server CPU per request in ms, when the server's pid was given. */
  cpuMsPerRequest?: number;
}

/** Drives one URL at a fixed concurrency for `seconds` and returns throughput, latency and, with `pid`, server CPU per request. */
export async function measure(
  url: string,
  options: { connections: number; seconds: number; method?: 'GET' | 'POST'; body?: unknown; pid?: number },
): Promise<LoadFigures> {
  const cpuBefore = options.pid ? await cpuMs(options.pid) : 0;
  const result = await autocannon({
    url,
    connections: options.connections,
    duration: options.seconds,
    method: options.method ?? 'GET',
    headers: options.body === undefined ? {} : { 'content-type': 'application/json' },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const cpu = options.pid ? (await cpuMs(options.pid)) - cpuBefore : undefined;
  return {
    requestsPerSecond: Math.round(result.requests.average),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    ...(cpu === undefined ? {} : { cpuMsPerRequest: Math.round((cpu / Math.max(1, result.requests.total)) * 1000) / 1000 }),
  };
}
