import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliverDue } from '../../server/alerts/deliveries.js';
import { evaluateRules } from '../../server/alerts/evaluate-rules.js';
import { request } from '../helpers/app.js';
import { queueTestBed } from '../helpers/queues.js';
import { failJobs, receiver } from './support/alert-fixtures.js';

describe('alerts: rules, events and signed deliveries', () => {
  const bed = queueTestBed({ SERVICE_SAMPLE_INTERVAL_SECONDS: '5' });
  const hooks = receiver();
  const flaky = receiver(1);
  let destination: { id: string; secret: string };
  let flakyDestination: { id: string };
  const api = (path: string, init: Parameters<typeof request>[1] = {}) => request(`${bed.app.api}${path}`, init);

  beforeAll(async () => {
    const created = await api('/alerts/destinations', {
      method: 'POST',
      body: { type: 'webhook', name: 'ops hook', url: await hooks.start() },
    });
    expect(created.status).toBe(201);
    destination = created.body;
    flakyDestination = (
      await api('/alerts/destinations', {
        method: 'POST',
        body: { type: 'webhook', name: 'flaky', url: await flaky.start() },
      })
    ).body;
  });
  afterAll(async () => {
    await hooks.close();
    await flaky.close();
  });

  it('shows a destination by its origin only, and its secret only at creation', async () => {
    expect(destination.secret).toMatch(/^whsec_/);
    const list = await api('/alerts/destinations');
    const shown = list.body.destinations.find((d: { id: string }) => d.id === destination.id);
    expect(shown.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/…$/);
    expect(JSON.stringify(list.body)).not.toContain('abc-secret-path');
    expect(JSON.stringify(list.body)).not.toContain(destination.secret);
  });

  it('fires a failed_count rule within two samples, delivers one signed message, then resolves and delivers once more', async () => {
    const rule = await api('/c/main/alerts/rules', {
      method: 'POST',
      body: {
        name: 'orders failing',
        type: 'failed_count',
        threshold: 3,
        windowMinutes: 1,
        queues: { include: ['orders*'], exclude: [] },
        destinationIds: [destination.id, flakyDestination.id],
      },
    });
    expect(rule.status).toBe(201);
    await bed.app.services.history.sampleOnce();
    await failJobs(bed, 'orders', 3);
    await bed.app.services.history.sampleOnce();

    const firing = await api(`/c/main/alerts/events?state=firing&ruleId=${rule.body.id}`);
    expect(firing.body.events).toHaveLength(1);
    const event = firing.body.events[0];
    expect(event).toMatchObject({ queueName: 'orders', value: 3, threshold: 3, resolvedAt: null });
    expect(hooks.received).toHaveLength(1);
    const [delivery] = hooks.received;
    expect(delivery!.headers['x-bullpen-event-id']).toBe(`${event.id}:firing`);
    const expected = `sha256=${createHmac('sha256', destination.secret).update(delivery!.body).digest('hex')}`;
    expect(delivery!.headers['x-bullpen-signature']).toBe(expected);
    expect(JSON.parse(delivery!.body)).toMatchObject({
      event: `${event.id}:firing`,
      state: 'firing',
      queueName: 'orders',
      value: 3,
      threshold: 3,
      connection: { id: 'main', name: 'main' },
      rule: { id: rule.body.id, name: 'orders failing', type: 'failed_count' },
    });

    await bed.app.services.history.sampleOnce();
    expect(hooks.received).toHaveLength(1);

    const em = () => bed.app.services.persistence.fork();
    await evaluateRules(em(), {
      connection: { id: 'main', name: 'main' },
      now: Date.now() + 2 * 60_000,
      sampleIntervalMs: 5000,
    });
    await deliverDue(em(), bed.app.services.secretCipher, bed.app.services.webhookPolicy, {
      now: new Date(Date.now() + 2 * 60_000),
    });
    expect(hooks.received.map((r) => r.headers['x-bullpen-event-id'])).toEqual([
      `${event.id}:firing`,
      `${event.id}:resolved`,
    ]);
    const resolved = await api(`/c/main/alerts/events?ruleId=${rule.body.id}`);
    expect(resolved.body.events[0]).toMatchObject({ id: event.id, state: 'resolved' });
    expect(resolved.body.events[0].resolvedAt).not.toBeNull();

    const ack = await api(`/c/main/alerts/events/${event.id}/acknowledge`, { method: 'POST', body: {} });
    expect(ack.status).toBe(200);
    expect(ack.body.acknowledgedAt).not.toBeNull();
  });

  it('retries a destination that failed, keeping the same event id, and logs the attempts', async () => {
    await deliverDue(
      bed.app.services.persistence.fork(),
      bed.app.services.secretCipher,
      bed.app.services.webhookPolicy,
      { now: new Date(Date.now() + 10 * 60_000) },
    );
    const firingIds = flaky.received
      .map((r) => r.headers['x-bullpen-event-id'])
      .filter((id) => String(id).endsWith(':firing'));
    expect(firingIds).toHaveLength(2);
    expect(firingIds[0]).toBe(firingIds[1]);
    const log = await api(`/alerts/destinations/${flakyDestination.id}/deliveries`);
    const firing = log.body.deliveries.find((d: { eventId: string }) => d.eventId === firingIds[0]);
    expect(firing).toMatchObject({ status: 'delivered', attempts: 2, lastStatusCode: 204 });
  });

  it('stays silent while snoozed', async () => {
    const snoozed = await api('/c/main/alerts/rules', {
      method: 'POST',
      body: {
        name: 'payments',
        type: 'failed_count',
        threshold: 1,
        windowMinutes: 5,
        queues: { include: ['payments'] },
        destinationIds: [destination.id],
        snoozedUntil: new Date(Date.now() + 3_600_000).toISOString(),
      },
    });
    const before = hooks.received.length;
    await failJobs(bed, 'payments', 2);
    await bed.app.services.history.sampleOnce();
    expect((await api(`/c/main/alerts/events?ruleId=${snoozed.body.id}`)).body.events).toEqual([]);
    expect(hooks.received.length).toBe(before);
    const test = await api(`/c/main/alerts/rules/${snoozed.body.id}/test`, { method: 'POST', body: {} });
    expect(test.body).toMatchObject({
      wouldFire: true,
      value: 2,
      threshold: 1,
      queues: [{ queueName: 'payments', value: 2, wouldFire: true }],
    });
  });

  it("refuses an unknown destination and answers 404 for another connection's rule", async () => {
    const bad = await api('/c/main/alerts/rules', {
      method: 'POST',
      body: { name: 'x', type: 'backlog', threshold: 1, windowMinutes: 1, destinationIds: ['nope'] },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/nope/);
    expect((await api('/c/main/alerts/rules/00000000-0000-0000-0000-000000000000')).status).toBe(404);
  });

  it('sends a signed test delivery on demand', async () => {
    const test = await api(`/alerts/destinations/${destination.id}/test`, { method: 'POST', body: {} });
    expect(test.body).toEqual({ delivered: true, statusCode: 204, error: null });
    const last = hooks.received.at(-1)!;
    expect(JSON.parse(last.body).state).toBe('test');
    expect(last.headers['x-bullpen-signature']).toBe(
      `sha256=${createHmac('sha256', destination.secret).update(last.body).digest('hex')}`,
    );
  });
});

describe('alert rule bodies are strict', () => {
  const bed = queueTestBed();
  it('refuses coerced numbers and creates nothing', async () => {
    for (const threshold of ['5', true, null]) {
      const bad = await request(`${bed.app.api}/c/main/alerts/rules`, {
        method: 'POST',
        body: { name: 'x', type: 'backlog', threshold, windowMinutes: 5 },
      });
      expect(bad.status).toBe(400);
      expect(bad.body.message).toMatch(/threshold/);
    }
    expect((await request(`${bed.app.api}/c/main/alerts/rules`)).body.rules).toEqual([]);
  });
});
