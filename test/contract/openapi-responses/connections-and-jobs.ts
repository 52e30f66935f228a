import { randomUUID } from 'node:crypto';
import { Job } from 'bullmq';
import { expect, it } from 'vitest';
import { redisUrl } from '../../helpers/stores.js';
import { docs, owner, queue, queuePath, state, store, withExample } from './tour.js';

/** Saved connections, then queues, jobs, bulk actions, moves and tasks on the `main` connection. */
export function connectionAndJobChecks(): void {
  it('connections', async () => {
    const local = await docs.check(withExample('POST /connections', { headers: owner() }), 201);
    await docs.check(withExample('POST /connections', { headers: owner() }), 409);
    const main = await docs.check(
      {
        operation: 'POST /connections',
        headers: owner(),
        body: { name: 'main', url: `${redisUrl}/0`, prefixes: [store.prefix] },
      },
      201,
    );
    state.main = main.body.id;
    state.down = (
      await docs.check(
        { operation: 'POST /connections', headers: owner(), body: { name: 'down', url: 'redis://127.0.0.1:1' } },
        201,
      )
    ).body.id;
    await docs.check({ operation: 'GET /connections', headers: owner() }, 200);
    await docs.check({ operation: 'GET /connections/{id}', path: { id: state.main! }, headers: owner() }, 200);
    await docs.check({ operation: 'GET /connections/{id}', path: { id: randomUUID() }, headers: owner() }, 404);
    await docs.check(withExample('PATCH /connections/{id}', { path: { id: local.body.id }, headers: owner() }), 200);
    await docs.check(
      { operation: 'PATCH /connections/{id}', path: { id: local.body.id }, headers: owner(), body: { name: 'main' } },
      409,
    );
    await docs.check(withExample('POST /connections/test', { headers: owner() }), 200);
    await docs.check({ operation: 'POST /connections/test', headers: owner(), body: {} }, 400);
    // Link-local (cloud metadata) is refused before anything is contacted, allow-list or not.
    const metadata = 'redis://169.254.169.254:6379';
    expect(
      (await docs.check({ operation: 'POST /connections/test', headers: owner(), body: { url: metadata } }, 400)).body
        .code,
    ).toBe('CONNECTION_TARGET_FORBIDDEN');
    await docs.check(
      { operation: 'POST /connections', headers: owner(), body: { name: 'metadata', url: metadata } },
      400,
    );
    await docs.check(
      { operation: 'PATCH /connections/{id}', path: { id: local.body.id }, headers: owner(), body: { url: metadata } },
      400,
    );
    await docs.check({ operation: 'DELETE /connections/{id}', path: { id: local.body.id }, headers: owner() }, 200);
    await docs.check({ operation: 'DELETE /connections/{id}', path: { id: local.body.id }, headers: owner() }, 404);
  });

  it('queues and jobs', async () => {
    const added = await docs.check(
      withExample('POST /c/{connectionId}/queues/{queueName}/jobs', { path: queuePath(), headers: owner() }),
      201,
    );
    const jobPath = { ...queuePath(), jobId: added.body.id };
    const logged = await Job.fromId(queue, added.body.id);
    await logged!.log('first line');
    await queue.add('later', {}, { delay: 60_000, jobId: 'later-1' });
    await docs.check(
      {
        operation: 'POST /c/{connectionId}/queues/{queueName}/jobs',
        path: queuePath(),
        headers: owner(),
        body: { name: 'again', jobId: 'later-1' },
      },
      409,
    );
    await docs.check(
      withExample('POST /c/{connectionId}/queues/{queueName}/jobs', {
        path: { ...queuePath(), queueName: 'new:queue' },
        headers: owner(),
      }),
      400,
    );
    await docs.check(
      { operation: 'GET /c/{connectionId}/queues', path: { connectionId: state.main! }, headers: owner() },
      200,
    );
    const found = await docs.check(
      {
        operation: 'GET /c/{connectionId}/queues',
        path: { connectionId: state.main! },
        query: { state: 'running', totals: 'true' },
        headers: owner(),
      },
      200,
    );
    expect(found.body.totals).toMatchObject({ waiting: expect.any(Number), failed: expect.any(Number) });
    await docs.check(
      {
        operation: 'GET /c/{connectionId}/queues',
        path: { connectionId: state.main! },
        query: { state: 'stuck' },
        headers: owner(),
      },
      400,
    );
    await docs.check(
      { operation: 'GET /c/{connectionId}/discovery', path: { connectionId: state.main! }, headers: owner() },
      200,
    );
    await docs.check(
      {
        operation: 'POST /c/{connectionId}/discovery',
        path: { connectionId: state.main! },
        headers: owner(),
        body: {},
      },
      202,
    );
    await docs.check(
      { operation: 'GET /c/{connectionId}/discovery', path: { connectionId: randomUUID() }, headers: owner() },
      404,
    );
    await docs.check(
      { operation: 'GET /c/{connectionId}/queues/{queueName}', path: queuePath(), headers: owner() },
      200,
    );
    await docs.check(
      {
        operation: 'GET /c/{connectionId}/queues/{queueName}',
        path: { ...queuePath(), queueName: 'no-such-queue' },
        headers: owner(),
      },
      404,
    );
    await docs.check(
      { operation: 'GET /c/{connectionId}/queues/{queueName}/can-delete', path: queuePath(), headers: owner() },
      200,
    );
    await docs.check(
      {
        operation: 'GET /c/{connectionId}/queues/{queueName}/jobs',
        path: queuePath(),
        query: { status: 'waiting' },
        headers: owner(),
      },
      200,
    );
    await docs.check(
      {
        operation: 'GET /c/{connectionId}/queues/{queueName}/jobs',
        path: queuePath(),
        query: { status: 'stuck' },
        headers: owner(),
      },
      400,
    );
    await docs.check(
      {
        operation: 'GET /c/{connectionId}/queues/{queueName}/search',
        path: queuePath(),
        query: { q: 'welcome' },
        headers: owner(),
      },
      200,
    );
    await docs.check(
      {
        operation: 'GET /c/{connectionId}/queues/{queueName}/failures',
        path: queuePath(),
        query: { window: '1h', limit: '10' },
        headers: owner(),
      },
      200,
    );
    await docs.check(
      {
        operation: 'GET /c/{connectionId}/queues/{queueName}/failures',
        path: queuePath(),
        query: { window: 'forever' },
        headers: owner(),
      },
      400,
    );
    await docs.check(
      { operation: 'GET /c/{connectionId}/queues/{queueName}/jobs/{jobId}', path: jobPath, headers: owner() },
      200,
    );
    await docs.check(
      {
        operation: 'GET /c/{connectionId}/queues/{queueName}/jobs/{jobId}',
        path: { ...jobPath, jobId: 'missing' },
        headers: owner(),
      },
      404,
    );
    await docs.check(
      { operation: 'GET /c/{connectionId}/queues/{queueName}/jobs/{jobId}/logs', path: jobPath, headers: owner() },
      200,
    );
    await docs.check(
      {
        operation: 'GET /c/{connectionId}/queues/{queueName}/jobs/{jobId}/fields/{field}',
        path: { ...jobPath, field: 'data' },
        query: { offset: '0', length: '16' },
        headers: owner(),
      },
      200,
    );
    await docs.check(
      {
        operation: 'GET /c/{connectionId}/queues/{queueName}/jobs/{jobId}/fields/{field}',
        path: { ...jobPath, field: 'returnvalue' },
        headers: owner(),
      },
      404,
    );
    await docs.check(
      { operation: 'DELETE /c/{connectionId}/queues/{queueName}/jobs/{jobId}/logs', path: jobPath, headers: owner() },
      200,
    );
    await docs.check(
      {
        operation: 'GET /c/{connectionId}/queues/{queueName}/jobs/{jobId}/stacktraces',
        path: jobPath,
        headers: owner(),
      },
      200,
    );
    await docs.check(
      { operation: 'GET /c/{connectionId}/queues/{queueName}/jobs/{jobId}/tree', path: jobPath, headers: owner() },
      200,
    );
    await docs.check(
      withExample('PATCH /c/{connectionId}/queues/{queueName}/jobs/{jobId}', { path: jobPath, headers: owner() }),
      200,
    );
    await docs.check(
      {
        operation: 'PATCH /c/{connectionId}/queues/{queueName}/jobs/{jobId}',
        path: { ...jobPath, jobId: 'missing' },
        headers: owner(),
        body: { data: {} },
      },
      404,
    );
    await docs.check(
      withExample('POST /c/{connectionId}/queues/{queueName}/jobs/{jobId}/duplicate', {
        path: jobPath,
        headers: owner(),
      }),
      201,
    );
    await docs.check(
      {
        operation: 'DELETE /c/{connectionId}/queues/{queueName}/jobs/{jobId}/stacktraces',
        path: jobPath,
        headers: owner(),
      },
      200,
    );
    for (const action of ['retry', 'remove', 'invoke']) {
      const operation = `POST /c/{connectionId}/queues/{queueName}/jobs/${action}`;
      await docs.check(withExample(operation, { path: queuePath(), headers: owner() }), 200);
      await docs.check({ operation, path: queuePath(), headers: owner(), body: {} }, 400);
    }
    for (const [method, path] of [
      ['PUT', 'global-concurrency'],
      ['DELETE', 'global-concurrency'],
      ['PUT', 'global-rate-limit'],
      ['DELETE', 'global-rate-limit'],
      ['DELETE', 'rate-limit'],
    ] as const) {
      const operation = `${method} /c/{connectionId}/queues/{queueName}/${path}`;
      await docs.check(
        method === 'PUT'
          ? withExample(operation, { path: queuePath(), headers: owner() })
          : { operation, path: queuePath(), headers: owner() },
        200,
      );
    }
    await docs.check(
      {
        operation: 'PUT /c/{connectionId}/queues/{queueName}/global-concurrency',
        path: queuePath(),
        headers: owner(),
        body: { concurrency: 0 },
      },
      400,
    );
    for (const action of ['retry', 'remove']) {
      const operation = `POST /c/{connectionId}/queues/{queueName}/jobs/${action}`;
      await docs.check(
        {
          operation,
          path: queuePath(),
          headers: owner(),
          body: { query: { q: 'later', in: ['id', 'name'] }, dryRun: true },
        },
        200,
      );
      await docs.check({ operation, path: queuePath(), headers: owner(), body: { query: { q: 'no such text' } } }, 200);
      await docs.check(
        { operation, path: queuePath(), headers: owner(), body: { query: { q: 'x' }, jobIds: ['1'] } },
        400,
      );
    }
    const move = 'POST /c/{connectionId}/queues/{queueName}/jobs/move';
    await docs.check(
      {
        operation: move,
        path: queuePath(),
        headers: owner(),
        body: { to: { queueName: 'emails-dlq' }, query: { q: 'later' }, dryRun: true },
      },
      200,
    );
    await docs.check(withExample(move, { path: queuePath(), headers: owner() }), 200);
    await docs.check(
      {
        operation: move,
        path: queuePath(),
        headers: owner(),
        body: { to: { queueName: 'a:b' }, status: 'failed', all: true },
      },
      400,
    );
    await docs.check(
      {
        operation: move,
        path: queuePath(),
        headers: owner(),
        body: { to: { queueName: 'emails-dlq' }, status: 'failed', all: true, async: true },
      },
      202,
    );
    const accepted = await docs.check(
      {
        operation: 'POST /c/{connectionId}/queues/{queueName}/jobs/retry',
        path: queuePath(),
        headers: owner(),
        body: { status: 'failed', all: true, async: true },
      },
      202,
    );
    // The test app runs no task runner: the task stays queued, so it can be cancelled once.
    const task = { connectionId: state.main!, taskId: accepted.body.taskId };
    await docs.check(
      { operation: 'GET /c/{connectionId}/tasks', path: { connectionId: state.main! }, headers: owner() },
      200,
    );
    await docs.check({ operation: 'GET /c/{connectionId}/tasks/{taskId}', path: task, headers: owner() }, 200);
    await docs.check({ operation: 'DELETE /c/{connectionId}/tasks/{taskId}', path: task, headers: owner() }, 200);
    await docs.check({ operation: 'DELETE /c/{connectionId}/tasks/{taskId}', path: task, headers: owner() }, 409);
    await docs.check(
      { operation: 'GET /c/{connectionId}/tasks/{taskId}', path: { ...task, taskId: randomUUID() }, headers: owner() },
      404,
    );
    for (const action of ['retry', 'remove']) {
      await docs.check(
        withExample(`POST /c/{connectionId}/jobs/${action}`, { path: { connectionId: state.main! }, headers: owner() }),
        200,
      );
    }
    await docs.check(
      { operation: 'GET /c/{connectionId}/queues/{queueName}/metrics', path: queuePath(), headers: owner() },
      200,
    );
    await docs.check(
      { operation: 'GET /c/{connectionId}/metrics', path: { connectionId: state.main! }, headers: owner() },
      200,
    );
    await docs.check(
      { operation: 'GET /c/{connectionId}/workers', path: { connectionId: state.main! }, headers: owner() },
      200,
    );
  });
}
