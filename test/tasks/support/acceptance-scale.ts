/**
 * `npm run acceptance` (ACCEPTANCE_FULL=1) runs issue 19's figures: a 200k-job retry at
 * 20,000/s and the default 60 s task lease. `npm test` runs a twentieth of the retry (≥ 5 s, long
 * enough for its SIGTERM and SIGKILL to land mid-task) and a 10 s lease, to stay within the suite's
 * time budget.
 */
export const fullScale = process.env.ACCEPTANCE_FULL === '1';

export const retryScale = fullScale ? { jobs: 200_000, maxPerSecond: 20_000 } : { jobs: 10_000, maxPerSecond: 2_000 };

/** Seconds; undefined leaves SERVICE_TASK_LEASE_SECONDS at its default (60). */
export const leaseSeconds = fullScale ? undefined : 10;

/** Enough for the worker to fail 200k jobs once more at ~1,500/s on two busy cores. */
export const acceptanceTimeoutMs = fullScale ? 900_000 : 180_000;
