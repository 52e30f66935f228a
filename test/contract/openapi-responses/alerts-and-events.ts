import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, it } from 'vitest';
import { app, docs, example, owner, queue, queuePath, state, withExample } from './tour.js';

/** History, alert destinations and rules, alert events, the live event stream and the Prometheus exposition. */
export function alertAndEventChecks(): void {
  it('history, alert destinations, alert rules and events', async () => {
    const connection = { connectionId: state.main! };
    await queue.add('back', {}); // the queue was deleted above
    await docs.check({ operation: 'GET /c/{connectionId}/history', path: connection, headers: owner() }, 200);
    await docs.check(
      { operation: 'GET /c/{connectionId}/history', path: connection, query: { points: 'many' }, headers: owner() },
      400,
    );
    await docs.check(
      { operation: 'GET /c/{connectionId}/queues/{queueName}/history', path: queuePath(), headers: owner() },
      200,
    );
    await docs.check(
      {
        operation: 'GET /c/{connectionId}/queues/{queueName}/history/insights',
        path: queuePath(),
        query: { window: '24h' },
        headers: owner(),
      },
      200,
    );
    await docs.check(
      {
        operation: 'GET /c/{connectionId}/queues/{queueName}/history/insights',
        path: queuePath(),
        query: { window: 'a day' },
        headers: owner(),
      },
      400,
    );

    const hook = createServer((req, res) => req.resume().on('end', () => res.end('ok')));
    await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
    try {
      await docs.check(withExample('POST /alerts/destinations', { headers: owner() }), 201);
      const url = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/hook`;
      const local = await docs.check(
        {
          operation: 'POST /alerts/destinations',
          headers: owner(),
          body: { type: 'webhook', name: 'local hook', url },
        },
        201,
      );
      const destination = { destinationId: local.body.id };
      await docs.check({ operation: 'GET /alerts/destinations', headers: owner() }, 200);
      await docs.check(
        { operation: 'GET /alerts/destinations/{destinationId}', path: destination, headers: owner() },
        200,
      );
      await docs.check(
        {
          operation: 'GET /alerts/destinations/{destinationId}',
          path: { destinationId: randomUUID() },
          headers: owner(),
        },
        404,
      );
      await docs.check(
        { operation: 'POST /alerts/destinations/{destinationId}/test', path: destination, headers: owner() },
        200,
      );
      await docs.check(
        { operation: 'GET /alerts/destinations/{destinationId}/deliveries', path: destination, headers: owner() },
        200,
      );
      await docs.check(
        {
          operation: 'GET /alerts/destinations/{destinationId}/deliveries',
          path: { destinationId: randomUUID() },
          headers: owner(),
        },
        404,
      );

      const rule = await docs.check(
        withExample('POST /c/{connectionId}/alerts/rules', { path: connection, headers: owner() }),
        201,
      );
      const rulePath = { ...connection, ruleId: rule.body.id };
      await docs.check(
        {
          operation: 'POST /c/{connectionId}/alerts/rules',
          path: connection,
          headers: owner(),
          body: { ...example('POST /c/{connectionId}/alerts/rules'), destinationIds: [randomUUID()] },
        },
        400,
      );
      await docs.check({ operation: 'GET /c/{connectionId}/alerts/rules', path: connection, headers: owner() }, 200);
      await docs.check(
        { operation: 'GET /c/{connectionId}/alerts/rules/{ruleId}', path: rulePath, headers: owner() },
        200,
      );
      await docs.check(
        withExample('PATCH /c/{connectionId}/alerts/rules/{ruleId}', { path: rulePath, headers: owner() }),
        200,
      );
      await docs.check(
        { operation: 'POST /c/{connectionId}/alerts/rules/{ruleId}/test', path: rulePath, headers: owner() },
        200,
      );
      await docs.check({ operation: 'GET /c/{connectionId}/alerts/events', path: connection, headers: owner() }, 200);
      await docs.check(
        {
          operation: 'POST /c/{connectionId}/alerts/events/{eventId}/acknowledge',
          path: { ...connection, eventId: randomUUID() },
          headers: owner(),
        },
        404,
      );
      await docs.check(
        { operation: 'DELETE /c/{connectionId}/alerts/rules/{ruleId}', path: rulePath, headers: owner() },
        200,
      );
      await docs.check(
        { operation: 'GET /c/{connectionId}/alerts/rules/{ruleId}', path: rulePath, headers: owner() },
        404,
      );
      await docs.check(
        { operation: 'DELETE /alerts/destinations/{destinationId}', path: destination, headers: owner() },
        200,
      );
      await docs.check(
        { operation: 'DELETE /alerts/destinations/{destinationId}', path: destination, headers: owner() },
        404,
      );
    } finally {
      hook.close();
    }
  });

  it('the event stream and the Prometheus exposition', async () => {
    const events = docs.operation('GET /c/{connectionId}/queues/{queueName}/events');
    const aborter = new AbortController();
    const stream = await fetch(`${app.api}/c/${state.main}/queues/emails/events`, {
      headers: owner(),
      signal: aborter.signal,
    });
    docs.expectDocumented(
      'GET /c/{connectionId}/queues/{queueName}/events',
      events,
      stream.status,
      stream.headers.get('content-type') ?? '',
      undefined,
    );
    expect(stream.status).toBe(200);
    aborter.abort();
    await docs.check(
      {
        operation: 'GET /c/{connectionId}/queues/{queueName}/events',
        path: { connectionId: randomUUID(), queueName: 'emails' },
        headers: owner(),
      },
      404,
    );
    await docs.check({ operation: 'GET /c/{connectionId}/queues/{queueName}/events', path: queuePath() }, 401);
    await docs.check(
      {
        operation: 'GET /c/{connectionId}/queues/{queueName}/events',
        path: { ...queuePath(), queueName: 'no-such-queue' },
        headers: owner(),
      },
      404,
    );
    await docs.check(
      {
        operation: 'GET /c/{connectionId}/queues/{queueName}/events',
        path: queuePath(),
        query: { prefix: '' },
        headers: owner(),
      },
      400,
    );
    await docs.check({ operation: 'GET /prometheus', headers: owner() }, 200);
    await docs.check({ operation: 'GET /prometheus' }, 401);
  });

  it('the MCP endpoint: a tool listed with a token, refused without one', async () => {
    const accept = { accept: 'application/json, text/event-stream' };
    const listed = await docs.check(
      {
        operation: 'POST /mcp',
        headers: { ...owner(), ...accept },
        body: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      },
      200,
    );
    expect(listed.body.result.tools.map((tool: { name: string }) => tool.name)).toContain('queues_get');
    await docs.check({ operation: 'POST /mcp', headers: accept, body: example('POST /mcp') }, 401);
  });

  it('definitions: export, a dry run, and an import missing its secrets', async () => {
    const exported = await docs.check({ operation: 'GET /definitions', headers: owner() }, 200);
    expect(exported.body.bullpenDefinitions).toBe(1);
    await docs.check(withExample('POST /definitions', { headers: owner() }), 200);
    const needsSecrets = {
      bullpenDefinitions: 1,
      alertDestinations: [
        { name: 'from a file', type: 'webhook', target: { secret: 'hook.url' }, signingSecret: { secret: 'hook.key' } },
      ],
    };
    const refused = await docs.check(
      { operation: 'POST /definitions', headers: owner(), body: { definitions: needsSecrets } },
      400,
    );
    expect(refused.body.code).toBe('SECRETS_MISSING');
  });
}
