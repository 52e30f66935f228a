import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from '../helpers/app.js';
import { waitFor } from '../helpers/jobs.js';
import { queryDatabase } from '../helpers/postgres.js';
import type { StageService } from './support/lifecycle-stage.js';
import { createDestinations, createFailureRule, failJobs, webhookReceiver } from './support/alert-stage.js';
import { chaosSize, chaosTimeout } from './support/chaos-size.js';
import { recordChaosRow } from './support/chaos-table.js';
import { lifecycleStage } from './support/lifecycle-stage.js';

const intervalSeconds = 5;
const hungDeliveries = 8;
/** How long the deliveries hang while samples are watched (the fault run: 45 s without a sample). */
const watchMs = chaosSize(15_000, 60_000);

/**
 * Issue 34, item 5: webhook receivers that never answer. Deliveries run on their own clock, so
 * while 8 of them hang, history samples keep their interval and a rule still fires at the next sample.
 */
describe('a hung webhook receiver', () => {
  const stage = lifecycleStage();
  const hung = webhookReceiver(null);
  let service: StageService;
  beforeAll(async () => {
    service = await stage.startService({ SERVICE_SAMPLE_INTERVAL_SECONDS: String(intervalSeconds) });
  });
  afterAll(() => hung.close());

  it(`keeps sampling every ${intervalSeconds} s and evaluating rules while ${hungDeliveries} deliveries hang`, {
    timeout: chaosTimeout(),
  }, async () => {
    // The queues exist (a delayed job no worker takes) before their rules: the sampler knows them from its first round.
    for (const queueName of ['hung-a', 'hung-b']) {
      expect(
        (
          await request(`${service.api}/c/main/queues/${queueName}/jobs`, {
            method: 'POST',
            body: { name: 'later', data: {}, delay: 3_600_000 },
          })
        ).status,
      ).toBe(201);
    }
    const destinations = await createDestinations(service.api, await hung.start(), 'hung', hungDeliveries);
    await createFailureRule(service.api, 'hung-a failing', ['hung-a'], destinations);
    await failJobs(stage.prefix, 'hung-a', 1);
    await waitFor(() => hung.arrivals.length >= 4, 20_000, 'deliveries to hang');
    const watchFrom = Date.now();

    const ruleB = await createFailureRule(service.api, 'hung-b failing', ['hung-b'], destinations.slice(0, 1));
    await new Promise((resolve) => setTimeout(resolve, watchMs - 3 * intervalSeconds * 1000));
    const failedAt = Date.now();
    await failJobs(stage.prefix, 'hung-b', 1);
    const event = await waitFor(
      async () => (await request(`${service.api}/c/main/alerts/events?ruleId=${ruleB}`)).body.events[0],
      3 * intervalSeconds * 1000,
      'rule B to fire',
    );
    const fireLagMs = Date.parse(event.firedAt) - failedAt;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, watchFrom + watchMs - Date.now())));

    const samples = await queryDatabase<{ at: string }>(
      stage.databaseUrl,
      "select at from connection_sample where connection_id = 'main' and resolution = 'raw' and at >= $1 order by at",
      [watchFrom - intervalSeconds * 1000],
    );
    const times = [
      watchFrom,
      ...samples.map((sample) => Number(sample.at)).filter((at) => at >= watchFrom),
      Date.now(),
    ];
    const widestGapMs = Math.max(...times.slice(1).map((at, n) => at - times[n]!));
    const hungSeen = hung.arrivals.length;
    const held =
      widestGapMs <= intervalSeconds * 1000 + 1_500 &&
      fireLagMs <= intervalSeconds * 1000 + 2_000 &&
      hungSeen >= hungDeliveries;
    recordChaosRow({
      scenario: `hung webhook receiver: ${hungDeliveries} deliveries hanging, ${watchMs / 1000} s watched`,
      expected: `samples every ${intervalSeconds} s (gap ≤ ${intervalSeconds + 1.5} s); a rule fires ≤ ${intervalSeconds + 2} s after a failure`,
      observed: `widest sample gap ${(widestGapMs / 1000).toFixed(1)} s over ${samples.length} samples; rule fired ${(fireLagMs / 1000).toFixed(1)} s after the failure; ${hungSeen} hung attempts`,
      held,
    });
    expect(hungSeen).toBeGreaterThanOrEqual(hungDeliveries);
    expect(widestGapMs).toBeLessThanOrEqual(intervalSeconds * 1000 + 1_500);
    expect(fireLagMs).toBeLessThanOrEqual(intervalSeconds * 1000 + 2_000);
  });
});
