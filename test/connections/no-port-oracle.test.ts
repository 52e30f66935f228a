import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliveryErrors, deliveryTimeoutMs, sendDelivery } from '../../server/alerts/send-delivery.js';
import { probeFailureMinimumMs } from '../../routers/connections/probe-store.js';
import { createTargetPolicy } from '../../server/stores/target-policy.js';
import { bootApp, request, type TestApp } from '../helpers/app.js';
import { startPortKinds, type PortKind, type PortKinds } from './support/port-kinds.js';

/** The answer and how long it took. */
async function timed<T>(work: () => Promise<T>): Promise<T & { ms: number }> {
  const started = performance.now();
  const result = await work();
  return { ...result, ms: performance.now() - started };
}

const notHttp: PortKind[] = ['closed', 'silent', 'hangs up', 'banner', 'redis'];
const notRedis: PortKind[] = ['closed', 'silent', 'hangs up', 'banner', 'http'];

/**
 * Outbound errors are no port scanner: whatever listens behind an address
 * (nothing, a silent socket, another protocol, HTTP, Redis), the answer is
 * one per outcome class (unreachable / refused by policy / answered with a
 * status), the same body within a class, in bounded time.
 */
describe('outbound errors say only the outcome class', () => {
  let app: TestApp;
  let kinds: PortKinds;
  const api = (path: string, init: Parameters<typeof request>[1] = {}) => request(`${app.api}${path}`, init);
  beforeAll(async () => {
    kinds = await startPortKinds();
    app = await bootApp({ env: { SERVICE_AUTHLESS: 'true' } });
  });
  afterAll(async () => {
    await app?.close();
    await kinds?.close();
  });

  it('a destination test: one body for every port that is not HTTP, answered at the deadline; a status for HTTP', async () => {
    const testOf = async (kind: PortKind) => {
      const created = await api('/alerts/destinations', {
        method: 'POST',
        body: { type: 'webhook', name: `hook ${kind}`, url: `http://127.0.0.1:${kinds.ports[kind]}/hook` },
      });
      expect(created.status).toBe(201);
      return timed(() => api(`/alerts/destinations/${created.body.id}/test`, { method: 'POST', body: {} }));
    };
    const answers = Object.fromEntries(
      await Promise.all([...notHttp, 'http' as const].map(async (kind) => [kind, await testOf(kind)] as const)),
    ) as Record<PortKind, Awaited<ReturnType<typeof testOf>>>;
    for (const kind of notHttp) {
      expect({ kind, status: answers[kind].status, body: answers[kind].body }).toEqual({
        kind,
        status: 200,
        body: { delivered: false, statusCode: null, error: deliveryErrors.unreachable },
      });
      expect(answers[kind].ms).toBeGreaterThanOrEqual(deliveryTimeoutMs - 5);
      expect(answers[kind].ms).toBeLessThan(deliveryTimeoutMs + 1500);
    }
    expect(answers.http.body).toEqual({ delivered: false, statusCode: 404, error: 'answered 404' });
    expect(answers.http.ms).toBeLessThan(deliveryTimeoutMs);
    // The delivery log says the same.
    const deliveries = await Promise.all(
      (await api('/alerts/destinations')).body.destinations.map(async (destination: { id: string; name: string }) => [
        destination.name,
        (await api(`/alerts/destinations/${destination.id}/deliveries`)).body.deliveries[0].lastError,
      ]),
    );
    expect(Object.fromEntries(deliveries)).toEqual({
      ...Object.fromEntries(notHttp.map((kind) => [`hook ${kind}`, deliveryErrors.unreachable])),
      'hook http': 'answered 404',
    });
  });

  it('a delivery refused by SERVICE_WEBHOOK_ALLOW: one message, whatever the reason', async () => {
    const policy = createTargetPolicy(['127.0.0.1:9', 'hooks.example.test'], async () => ['127.0.0.1'], {
      variable: 'SERVICE_WEBHOOK_ALLOW',
      code: 'WEBHOOK_TARGET_FORBIDDEN',
    });
    const unresolvable = createTargetPolicy(
      null,
      async () => {
        throw new Error('ENOTFOUND');
      },
      { variable: 'SERVICE_WEBHOOK_ALLOW', code: 'WEBHOOK_TARGET_FORBIDDEN' },
    );
    const payload = {
      event: 'e',
      rule: { id: 'r', name: 'r', type: 't' },
      connection: { id: 'c', name: 'c' },
      queueName: null,
      value: 0,
      threshold: 0,
      state: 'test' as const,
      at: new Date().toISOString(),
    };
    const refusals = await Promise.all([
      sendDelivery({ type: 'webhook', url: `http://127.0.0.1:${kinds.ports.http}/hook`, secret: 's' }, payload, policy),
      sendDelivery({ type: 'webhook', url: 'http://169.254.169.254/latest', secret: 's' }, payload, policy),
      sendDelivery({ type: 'webhook', url: 'http://nowhere.invalid/hook', secret: 's' }, payload, unresolvable),
    ]);
    expect(refusals).toEqual(
      refusals.map(() => ({ delivered: false, statusCode: null, error: deliveryErrors.refused })),
    );
  });

  it('a saved connection: 503 STORE_UNAVAILABLE with one body for every port that is not Redis (an HTTP port too, never 500)', async () => {
    const created = await api('/connections', {
      method: 'POST',
      body: { name: 'scanner', url: 'redis://127.0.0.1:6379/0' },
    });
    expect(created.status).toBe(201);
    const answers: Record<string, { status: number; body: unknown; retryAfter: string | null; ms: number }> = {};
    for (const kind of notRedis) {
      expect(
        (
          await api(`/connections/${created.body.id}`, {
            method: 'PATCH',
            body: { url: `redis://127.0.0.1:${kinds.ports[kind]}/0` },
          })
        ).status,
      ).toBe(200);
      const answer = await timed(() => api(`/c/${created.body.id}/queues`));
      answers[kind] = {
        status: answer.status,
        body: answer.body,
        retryAfter: answer.headers.get('retry-after'),
        ms: answer.ms,
      };
    }
    const expected = {
      status: 503,
      body: {
        code: 'STORE_UNAVAILABLE',
        message: 'The store of connection "scanner" is unavailable: no Redis server answered',
        connectionId: created.body.id,
      },
      retryAfter: expect.stringMatching(/^\d+$/),
    };
    expect(Object.values(answers)).toEqual(notRedis.map(() => ({ ...expected, ms: expect.any(Number) })));
    for (const { ms } of Object.values(answers)) expect(ms).toBeLessThan(5000);
  });

  it('a connection test: one body for every port that is not Redis, answered at the same time', async () => {
    const answers = await Promise.all(
      notRedis.map((kind) =>
        timed(() =>
          api('/connections/test', { method: 'POST', body: { url: `redis://127.0.0.1:${kinds.ports[kind]}/0` } }),
        ),
      ),
    );
    const bodies = answers.map(({ body }, index) => ({
      ...body,
      error: body.error.replace(`:${kinds.ports[notRedis[index]!]}`, ':<port>'),
    }));
    expect(bodies).toEqual(
      notRedis.map(() => ({
        ok: false,
        latencyMs: null,
        redisVersion: null,
        mode: 'standalone',
        error: 'no Redis server answered at 127.0.0.1:<port>',
      })),
    );
    for (const { ms } of answers) {
      expect(ms).toBeGreaterThanOrEqual(probeFailureMinimumMs);
      expect(ms).toBeLessThan(probeFailureMinimumMs + 700);
    }
  });
});
