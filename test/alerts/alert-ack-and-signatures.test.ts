import { createHmac, timingSafeEqual } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliverDue } from '../../server/alerts/deliveries.js';
import { evaluateRules } from '../../server/alerts/evaluate-rules.js';
import { request } from '../helpers/app.js';
import { runBullpen } from '../helpers/cli.js';
import { queueTestBed } from '../helpers/queues.js';
import { failJobs, receiver, type Received } from './support/alert-fixtures.js';

/**
 * The receiver of docs/api.md (Alerts): recompute the HMAC over `<Bullpen-Timestamp>.<raw body>` and refuse a
 * delivery whose timestamp is more than five minutes away from now (a replay).
 */
function verifyDelivery(delivery: Received, secret: string, now = Date.now()): 'ok' | 'bad signature' | 'too old' {
  const timestamp = String(delivery.headers['bullpen-timestamp']);
  const expected = Buffer.from(
    `sha256=${createHmac('sha256', secret).update(`${timestamp}.${delivery.body}`).digest('hex')}`,
  );
  const sent = Buffer.from(String(delivery.headers['bullpen-signature']));
  if (sent.length !== expected.length || !timingSafeEqual(sent, expected)) return 'bad signature';
  return Math.abs(now / 1000 - Number(timestamp)) > 300 ? 'too old' : 'ok';
}

describe('webhook deliveries carry a timestamped signature', () => {
  const bed = queueTestBed({ SERVICE_SAMPLE_INTERVAL_SECONDS: '5' });
  const hooks = receiver(1);
  let destination: { id: string; secret: string };
  const api = (path: string, init: Parameters<typeof request>[1] = {}) => request(`${bed.app.api}${path}`, init);

  beforeAll(async () => {
    destination = (
      await api('/alerts/destinations', {
        method: 'POST',
        body: { type: 'webhook', name: 'signed', url: await hooks.start() },
      })
    ).body;
  });
  afterAll(() => hooks.close());

  it('signs `timestamp.body` per attempt: the documented receiver takes each attempt, refuses a replay after 5 minutes and a changed body', async () => {
    await api('/c/main/alerts/rules', {
      method: 'POST',
      body: {
        name: 'mail failing',
        type: 'failed_count',
        threshold: 1,
        windowMinutes: 1,
        queues: { include: ['mail'] },
        destinationIds: [destination.id],
      },
    });
    await bed.app.services.history.sampleOnce();
    await failJobs(bed, 'mail', 1);
    const before = Date.now();
    await bed.app.services.history.sampleOnce();
    // The first attempt was answered 500; the retry is sent later, signed anew.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await deliverDue(
      bed.app.services.persistence.fork(),
      bed.app.services.secretCipher,
      bed.app.services.webhookPolicy,
      { now: new Date(Date.now() + 60_000) },
    );
    expect(hooks.received).toHaveLength(2);
    const [first, retry] = hooks.received as [Received, Received];
    expect(Number(first.headers['bullpen-timestamp'])).toBeGreaterThanOrEqual(Math.floor(before / 1000));
    expect(Number(retry.headers['bullpen-timestamp'])).toBeGreaterThan(Number(first.headers['bullpen-timestamp']));
    expect(retry.body).toBe(first.body);
    expect(retry.headers['x-bullpen-event-id']).toBe(first.headers['x-bullpen-event-id']);
    expect(retry.headers['bullpen-signature']).not.toBe(first.headers['bullpen-signature']);
    for (const delivery of [first, retry]) expect(verifyDelivery(delivery, destination.secret)).toBe('ok');
    expect(verifyDelivery(retry, destination.secret, Date.now() + 6 * 60_000)).toBe('too old');
    expect(verifyDelivery({ ...retry, body: retry.body.replace('firing', 'resolved') }, destination.secret)).toBe(
      'bad signature',
    );
    expect(verifyDelivery(retry, 'whsec_another')).toBe('bad signature');
    // Receivers written before the timestamp still find the body-only signature.
    expect(retry.headers['x-bullpen-signature']).toBe(
      `sha256=${createHmac('sha256', destination.secret).update(retry.body).digest('hex')}`,
    );
  });

  it('signs a test delivery the same way', async () => {
    const test = await api(`/alerts/destinations/${destination.id}/test`, { method: 'POST', body: {} });
    expect(test.body.delivered).toBe(true);
    expect(verifyDelivery(hooks.received.at(-1)!, destination.secret)).toBe('ok');
  });
});

describe('acknowledging an event can snooze its rule', () => {
  const bed = queueTestBed({ SERVICE_SAMPLE_INTERVAL_SECONDS: '5' });
  const hooks = receiver();
  const api = (path: string, init: Parameters<typeof request>[1] = {}) => request(`${bed.app.api}${path}`, init);
  const bullpen = (args: string[]) => runBullpen(args, { env: { BULLPEN_URL: bed.app.url } });
  let ruleId: string;
  let eventId: string;

  beforeAll(async () => {
    const destination = (
      await api('/alerts/destinations', {
        method: 'POST',
        body: { type: 'webhook', name: 'ops', url: await hooks.start() },
      })
    ).body;
    ruleId = (
      await api('/c/main/alerts/rules', {
        method: 'POST',
        body: {
          name: 'billing failing',
          type: 'failed_count',
          threshold: 1,
          windowMinutes: 1,
          cooldownMinutes: 0,
          queues: { include: ['billing'] },
          destinationIds: [destination.id],
        },
      })
    ).body.id;
    await bed.app.services.history.sampleOnce();
    await failJobs(bed, 'billing', 1);
    await bed.app.services.history.sampleOnce();
    eventId = (await api(`/c/main/alerts/events?ruleId=${ruleId}`)).body.events[0].id;
  });
  afterAll(() => hooks.close());

  it('refuses a bad time or an unknown field and changes nothing', async () => {
    for (const body of [
      { snoozeRuleUntil: 'tomorrow' },
      { snoozeRuleUntil: 5 },
      { snoozeUntil: '2030-01-01T00:00:00Z' },
    ]) {
      const bad = await api(`/c/main/alerts/events/${eventId}/acknowledge`, { method: 'POST', body });
      expect(bad.status).toBe(400);
    }
    const event = (await api(`/c/main/alerts/events?ruleId=${ruleId}`)).body.events[0];
    expect(event.acknowledgedAt).toBeNull();
    expect((await api(`/c/main/alerts/rules/${ruleId}`)).body.snoozedUntil).toBeNull();
  });

  it('acknowledges and snoozes in one call; the snoozed rule then neither fires nor delivers its resolution', async () => {
    const until = new Date(Date.now() + 2 * 3_600_000).toISOString();
    const ack = await api(`/c/main/alerts/events/${eventId}/acknowledge`, {
      method: 'POST',
      body: { snoozeRuleUntil: until },
    });
    expect(ack.status).toBe(200);
    expect(ack.body).toMatchObject({ id: eventId, state: 'firing', ruleSnoozedUntil: until });
    expect(ack.body.acknowledgedAt).not.toBeNull();
    expect(Date.parse((await api(`/c/main/alerts/rules/${ruleId}`)).body.snoozedUntil)).toBe(Date.parse(until));
    const delivered = hooks.received.length;
    // Two minutes on, the window holds no failure: the event resolves, silently.
    await evaluateRules(bed.app.services.persistence.fork(), {
      connection: { id: 'main', name: 'main' },
      now: Date.now() + 2 * 60_000,
      sampleIntervalMs: 5000,
    });
    // New failures open nothing while snoozed.
    await failJobs(bed, 'billing', 2);
    await bed.app.services.history.sampleOnce();
    const events = (await api(`/c/main/alerts/events?ruleId=${ruleId}`)).body.events;
    expect(events.map((event: { state: string }) => event.state)).toEqual(['resolved']);
    expect(hooks.received.length).toBe(delivered);
  });

  it('bullpen alerts ack --snooze and bullpen alerts snooze … off', async () => {
    const ack = await bullpen(['alerts', 'ack', eventId, '--snooze', '30m']);
    expect(ack.code).toBe(0);
    expect(ack.stdout).toMatch(
      new RegExp(
        `^acknowledged alert event ${eventId} \\(resolved, billing\\) at .+Z; its rule is snoozed until \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\dZ$`,
        'm',
      ),
    );
    const snoozedUntil = Date.parse((await api(`/c/main/alerts/rules/${ruleId}`)).body.snoozedUntil);
    expect(Math.abs(snoozedUntil - (Date.now() + 30 * 60_000))).toBeLessThan(60_000);
    const off = await bullpen(['alerts', 'snooze', ruleId, 'off']);
    expect([off.code, off.stdout]).toEqual([0, 'rule billing failing is no longer snoozed\n']);
    expect((await api(`/c/main/alerts/rules/${ruleId}`)).body.snoozedUntil).toBeNull();
    const bad = await bullpen(['alerts', 'snooze', ruleId, 'later']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/a snooze is a span such as 30m/);
  });
});
