import { report, round } from '../targets.js';

/** What the many-queues seed holds, computed from its rules (not read back through Bullpen). */
export interface SeededStates {
  queues: number;
  idle: number;
  paused: number;
  waitingJobs: number;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function timedList(url: string): Promise<{ ms: number; body: { total: number; totals?: { waiting: number } } }> {
  const started = performance.now();
  const response = await fetch(url);
  const body = (await response.json()) as { total: number; totals?: { waiting: number } };
  if (!response.ok) throw new Error(`${url}: ${response.status} ${JSON.stringify(body)}`);
  return { ms: performance.now() - started, body };
}

/** The median time of 7 requests of a list URL, and the last answer. */
async function medianOf7(url: string) {
  const runs = [];
  for (let i = 0; i < 7; i++) runs.push(await timedList(url));
  return { ms: round(median(runs.map((run) => run.ms)), 1), body: runs.at(-1)!.body };
}

/**
 * Issue 19 item 3 at scale: a state filter and the connection's totals cost
 * what a sort by a count costs (≤ 100 ms at 10,000 queues). Measured with the
 * dearest state (`idle`: up to five EXISTS per queue) and with the
 * totals (eight counts per queue) on top; the answers are checked against
 * what the seed put there.
 */
export async function findQueuesScenario(base: string, label: string, seeded: SeededStates): Promise<void> {
  const page = `${base}/queues?page=1&pageSize=100`;
  const idle = await medianOf7(`${page}&state=idle`);
  report('19 find queues', `${label}: page of 100 with state=idle (median of 7)`, `${idle.ms} ms, ${idle.body.total} queues (seeded ${seeded.idle})`, '≤ 100 ms', idle.ms <= 100 && idle.body.total === seeded.idle);
  const both = await medianOf7(`${page}&state=paused&totals=true`);
  const right = both.body.total === seeded.paused && both.body.totals?.waiting === seeded.waitingJobs;
  report('19 find queues', `${label}: page of 100 with state=paused&totals=true (median of 7)`, `${both.ms} ms, totals.waiting ${both.body.totals?.waiting} (seeded ${seeded.waitingJobs})`, '≤ 100 ms', both.ms <= 100 && right);
  const dearest = await medianOf7(`${page}&state=idle&sort=failed&totals=true`);
  report('19 find queues', `${label}: page of 100 with state=idle&sort=failed&totals=true (median of 7)`, `${dearest.ms} ms`, '≤ 100 ms', dearest.ms <= 100 && dearest.body.total === seeded.idle);
}
