import { readFile } from 'node:fs/promises';

/** Clock ticks per second of /proc/<pid>/stat's utime and stime (USER_HZ, 100 on Linux). */
const ticksPerSecond = 100;

/** CPU milliseconds (user + system) a process has used so far. */
export async function cpuMs(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may hold spaces) start at field 3.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticksPerSecond;
}

/** Samples a process's RSS every `everyMs` and keeps the peak, until stopped. */
export function rssPeakWatcher(pid: number, everyMs = 200): { stop(): number; peakMb(): number } {
  let peak = 0;
  const sample = async () => {
    try {
      const status = await readFile(`/proc/${pid}/status`, 'utf8');
      peak = Math.max(peak, Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024));
    } catch {
      // the process is gone
    }
  };
  const timer = setInterval(() => void sample(), everyMs);
  void sample();
  return {
    stop() {
      clearInterval(timer);
      return peak;
    },
    peakMb: () => peak,
  };
}

/**
 * Waits until every process used at most `maxCpuMs` of CPU over one `windowMs` window (or `timeoutMs`
 * passed): a server that just answered its port may still be starting (bull-board opens a BullMQ Queue
 * per queue), and its startup work on the shared cores would read as the next subject's latency.
 * Answers the milliseconds waited.
 */
export async function waitUntilIdle(
  pids: number[],
  options: { windowMs?: number; maxCpuMs?: number; timeoutMs?: number } = {},
): Promise<number> {
  const { windowMs = 500, maxCpuMs = 25, timeoutMs = 15_000 } = options;
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    const before = await Promise.all(pids.map(cpuMs));
    await new Promise((resolve) => setTimeout(resolve, windowMs));
    const after = await Promise.all(pids.map(cpuMs));
    if (after.every((used, i) => used - before[i]! <= maxCpuMs)) break;
  }
  return Date.now() - started;
}
