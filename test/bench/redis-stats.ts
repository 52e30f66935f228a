import type { Redis } from 'ioredis';

/**
 * Commands clients send while `work` runs, seen by MONITOR: a script counts
 * once (the commands it runs inside Redis are tagged `lua` and not counted),
 * so this is the number of round trips when nothing is pipelined.
 */
export async function clientCommandsDuring(redis: Redis, work: () => Promise<void>): Promise<number> {
  const base = redis.duplicate();
  const monitor = await base.monitor();
  let count = 0;
  monitor.on('monitor', (_time: string, _args: string[], source: string) => {
    if (!source.includes('lua')) count++;
  });
  await work();
  await new Promise((resolve) => setTimeout(resolve, 200));
  monitor.disconnect();
  base.disconnect();
  return count;
}

/** PING round trips every `everyMs` on a client of its own until stopped; gives back the p99 in ms. */
export function pingWatcher(redis: Redis, everyMs = 10): { stop(): Promise<number> } {
  const latencies: number[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      await redis.ping();
      latencies.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      const sorted = latencies.sort((a, b) => a - b);
      return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))] ?? 0;
    },
  };
}
