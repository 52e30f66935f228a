import { readdir, readFile } from 'node:fs/promises';
import { connect } from 'node:net';

/** The PIDs whose parent is `pid` (Linux /proc). */
export async function childPids(pid: number): Promise<number[]> {
  const children: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    // Fields after the parenthesised command name: state, ppid, …
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (ppid === pid) children.push(Number(entry));
  }
  return children;
}

/** Every descendant of `pid`, children first. */
export async function descendantPids(pid: number): Promise<number[]> {
  const direct = await childPids(pid);
  const nested = await Promise.all(direct.map(descendantPids));
  return [...direct, ...nested.flat()];
}

/** True while the process exists and is not a zombie. */
export async function isRunning(pid: number): Promise<boolean> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null);
  return stat !== null && stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
}

export async function waitUntilGone(pids: number[], timeoutMs = 15_000): Promise<number[]> {
  const deadline = Date.now() + timeoutMs;
  let alive = pids;
  while (Date.now() < deadline) {
    alive = (await Promise.all(pids.map(async (pid) => ((await isRunning(pid)) ? pid : null)))).filter(
      (pid) => pid !== null,
    );
    if (alive.length === 0) return [];
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return alive;
}

/** Whether something accepts TCP connections on the URL's host and port. */
export function isListening(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect({ host: hostname, port: Number(port) });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
