import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import autocannon from 'autocannon';
import { cpuMs } from './cpu.js';

const run = promisify(execFile);
const sequentialClient = fileURLToPath(new URL('./sequential-client.mjs', import.meta.url));

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
    ...(cpu === undefined
      ? {}
      : { cpuMsPerRequest: Math.round((cpu / Math.max(1, result.requests.total)) * 1000) / 1000 }),
  };
}

/** The `q` quantile of latencies sorted ascending, rounded to 0.01 ms. */
export const percentileOf = (sorted: readonly number[], q: number) =>
  Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]! * 100) / 100;

/**
 * One connection, one request at a time (keep-alive), for `seconds`: the same figures as `measure`
 * with each latency timed in microseconds. autocannon keeps latencies in whole milliseconds, which
 * at a 1.4 ms p50 turns a p99/p50 ratio into noise (1.4 ms reads as 1, 4.2 ms as 4: "4×"). The
 * requests are sent by a small process of their own (sequential-client.mjs), not this one.
 */
export async function measureSequential(
  url: string,
  options: { seconds: number; pid?: number },
): Promise<LoadFigures & { latenciesMs: number[] }> {
  const cpuBefore = options.pid ? await cpuMs(options.pid) : 0;
  const { stdout } = await run(process.execPath, [sequentialClient, url, String(options.seconds)], {
    maxBuffer: 64 * 1024 * 1024,
  });
  const cpu = options.pid ? (await cpuMs(options.pid)) - cpuBefore : undefined;
  const { latenciesUs, non2xx, elapsedSeconds } = JSON.parse(stdout) as {
    latenciesUs: number[];
    non2xx: number;
    elapsedSeconds: number;
  };
  const latencies = latenciesUs.map((us) => us / 1000).sort((a, b) => a - b);
  return {
    latenciesMs: latencies,
    requestsPerSecond: Math.round(latencies.length / elapsedSeconds),
    p50Ms: percentileOf(latencies, 0.5),
    p99Ms: percentileOf(latencies, 0.99),
    errors: 0,
    non2xx,
    ...(cpu === undefined ? {} : { cpuMsPerRequest: Math.round((cpu / Math.max(1, latencies.length)) * 1000) / 1000 }),
  };
}
