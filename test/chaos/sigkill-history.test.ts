import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from '../helpers/app.js';
import { waitFor } from '../helpers/jobs.js';
import { queryDatabase } from '../helpers/postgres.js';
import type { StageService } from './support/lifecycle-stage.js';
import { createDestinations, createFailureRule, webhookReceiver } from './support/alert-stage.js';
import { chaosSize, chaosTimeout } from './support/chaos-size.js';
import { recordChaosRow } from './support/chaos-table.js';
import { failureFlow } from './support/failure-flow.js';
import { lifecycleStage } from './support/lifecycle-stage.js';

const intervalSeconds = 5;
const failures = chaosSize(320, 1_280);
const perSecond = 40;
const queueNames = Array.from({ length: 8 }, (_, n) => `flow-${n}`);
/** The receiver holds each delivery this long before its 200. */
const ackMs = 300;

const leaseTakenAt = (service: StageService) =>
  service
    .output()
    .split('\n')
    .filter((line) => line.includes('"msg":"lease taken"') && line.includes('"lease":"history-sampler"'))
    .map((line) => Date.parse((JSON.parse(line) as { time: string }).time));

/**
 * Issue 34, items 5 and 6: two replicas share one database; failures flow through 8 queues and a
 * rule fires one delivery per queue to one receiver. The replica holding the history lease is
 * SIGKILLed while it delivers (at the 4th delivery's arrival). The other takes the lease over
 * within 15 s, resends no delivery the receiver acknowledged, and the history counts every failure.
 */
describe('SIGKILL of the history holder, mid-delivery, with failures flowing', () => {
  const stage = lifecycleStage();
  const receiver = webhookReceiver(ackMs);
  const replicas: StageService[] = [];
  beforeAll(async () => {
    const env = { SERVICE_SAMPLE_INTERVAL_SECONDS: String(intervalSeconds) };
    replicas.push(await stage.startService(env), await stage.startService(env));
    for (const queueName of queueNames) {
      await request(`${replicas[0]!.api}/c/main/queues/${queueName}/jobs`, {
        method: 'POST',
        body: { name: 'later', data: {}, delay: 3_600_000 },
      });
    }
  });
  afterAll(() => receiver.close());

  it('hands the lease over ≤ 15 s, resends nothing acknowledged, and counts every failure', {
    timeout: chaosTimeout(),
  }, async () => {
    const [first] = replicas as [StageService, StageService];
    const [destination] = await createDestinations(first.api, await receiver.start(), 'ack', 1);
    const ruleId = await createFailureRule(first.api, 'flow failing', ['flow-*'], [destination!]);
    const holder = await waitFor(
      () => replicas.find((replica) => leaseTakenAt(replica).length > 0),
      15_000,
      'a replica to hold the history lease',
    );
    const survivor = replicas.find((replica) => replica !== holder)!;

    const flow = failureFlow(stage.prefix, queueNames, failures, perSecond);
    try {
      const fourth = new Promise<void>((resolve) =>
        receiver.onArrival(() => receiver.arrivals.length === 4 && resolve()),
      );
      await fourth;
      const killedAt = Date.now();
      holder!.child.kill('SIGKILL');
      await holder!.exited;
      await flow.added;
      await waitFor(async () => (await flow.failed(stage.redis)) >= failures, 20_000, 'every job to fail');

      const counted = async () =>
        Number(
          (
            await queryDatabase<{ sum: string | null }>(
              stage.databaseUrl,
              "select sum(failed_delta) as sum from connection_sample where connection_id = 'main' and resolution = 'raw'",
            )
          )[0]!.sum ?? 0,
        );
      const history = await waitFor(
        async () => ((await counted()) >= failures ? counted() : undefined),
        25_000,
        'the history to count every failure',
      ).catch(counted);
      const handoverMs = (leaseTakenAt(survivor)[0] ?? Infinity) - killedAt;

      const events = (await request(`${survivor.api}/c/main/alerts/events?ruleId=${ruleId}`)).body.events as Array<{
        id: string;
      }>;
      const answered = () =>
        new Set(receiver.arrivals.filter((arrival) => arrival.answeredAt !== null).map((arrival) => arrival.eventId));
      await waitFor(
        () => events.every((event) => answered().has(`${event.id}:firing`)),
        15_000,
        'every delivery to be acknowledged',
      ).catch(() => undefined);
      const ackedBeforeKill = new Set(
        receiver.arrivals
          .filter((arrival) => arrival.answeredAt !== null && arrival.answeredAt < killedAt)
          .map((arrival) => arrival.eventId),
      );
      const resent = receiver.arrivals.filter(
        (arrival) => ackedBeforeKill.has(arrival.eventId) && arrival.arrivedAt > killedAt,
      ).length;
      const delivered = events.filter((event) => answered().has(`${event.id}:firing`)).length;

      recordChaosRow({
        scenario: `SIGKILL mid-delivery: ${events.length} deliveries, holder killed at the 4th`,
        expected: 'no acknowledged delivery re-sent; every delivery acknowledged after the handover',
        observed: `${ackedBeforeKill.size} acknowledged before the kill, ${resent} re-sent; ${delivered}/${events.length} acknowledged in the end`,
        held: resent === 0 && delivered === events.length && ackedBeforeKill.size > 0,
      });
      recordChaosRow({
        scenario: `SIGKILL of the history holder with ${failures} failures flowing (${perSecond}/s)`,
        expected: `history counts all ${failures}; lease handover ≤ 15 s`,
        observed: `history counted ${history}; handover ${(handoverMs / 1000).toFixed(1)} s`,
        held: history === failures && handoverMs <= 15_000,
      });
      expect(ackedBeforeKill.size).toBeGreaterThan(0);
      expect(resent).toBe(0);
      expect(delivered).toBe(events.length);
      expect(handoverMs).toBeLessThanOrEqual(15_000);
      expect(history).toBe(failures);
    } finally {
      await flow.close();
    }
  });
});
