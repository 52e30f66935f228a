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

/** SERVICE_QUEUE_LIST_CACHE_MS as the bench runs Bullpen (the default): how long counted totals are served. */
const totalsWindowMs = 5000;

/**
 * Issue 19 item 3 at scale: a state filter and the connection's totals cost
 * what a sort by a count costs (≤ 100 ms at 10,000 queues). Every state
 * filter; totals as counted (the first list after the window has passed:
 * eight counts of every queue) and as served within the window; and both
 * combined with the dearest state (`idle`: up to five lookups per queue)
 * and a sort. The answers are checked against what the seed put there.
 */
export async function findQueuesScenario(base: string, label: string, seeded: SeededStates): Promise<void> {
  const page = `${base}/queues?page=1&pageSize=100`;
  const states = ['paused', 'running', 'failing', 'idle'] as const;
  const byState = [];
  for (const state of states) byState.push(await medianOf7(`${page}&state=${state}`));
  const [paused, , , idle] = byState;
  const slowest = Math.max(...byState.map((one) => one.ms));
  const statesRight = paused!.body.total === seeded.paused && idle!.body.total === seeded.idle;
  report('19 find queues', `${label}: page of 100 with state=${states.join(' / ')} (median of 7 each)`, `${byState.map((one) => one.ms).join(' / ')} ms; idle ${idle!.body.total} (seeded ${seeded.idle})`, '≤ 100 ms', slowest <= 100 && statesRight);
  const counted = [];
  for (let i = 0; i < 3; i++) {
    await new Promise((resolve) => setTimeout(resolve, totalsWindowMs + 200));
    counted.push(await timedList(`${page}&totals=true`));
  }
  const countedMs = round(median(counted.map((run) => run.ms)), 1);
  const countedRight = counted.every((run) => run.body.totals?.waiting === seeded.waitingJobs);
  report('19 find queues', `${label}: page of 100 with totals=true, counted (past the ${totalsWindowMs / 1000} s window; median of 3)`, `${countedMs} ms`, '≤ 100 ms', countedMs <= 100 && countedRight);
  const served = await medianOf7(`${page}&totals=true`);
  report('19 find queues', `${label}: page of 100 with totals=true, served within the window (median of 7)`, `${served.ms} ms`, '≤ 100 ms', served.ms <= 100 && served.body.totals?.waiting === seeded.waitingJobs);
  const both = await medianOf7(`${page}&state=paused&totals=true`);
  const right = both.body.total === seeded.paused && both.body.totals?.waiting === seeded.waitingJobs;
  report('19 find queues', `${label}: page of 100 with state=paused&totals=true (median of 7)`, `${both.ms} ms, totals.waiting ${both.body.totals?.waiting} (seeded ${seeded.waitingJobs})`, '≤ 100 ms', both.ms <= 100 && right);
  const dearest = await medianOf7(`${page}&state=idle&sort=failed&totals=true`);
  report('19 find queues', `${label}: page of 100 with state=idle&sort=failed&totals=true (median of 7)`, `${dearest.ms} ms`, '≤ 100 ms', dearest.ms <= 100 && dearest.body.total === seeded.idle);
}
