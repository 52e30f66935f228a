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
