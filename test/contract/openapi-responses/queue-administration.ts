import { expect, it } from 'vitest';
import { docs, owner, queue, queuePath, state, store, withExample } from './tour.js';

/** Schedulers, store keys, the destructive queue actions and a protected connection. */
export function queueAdministrationChecks(): void {
  it('schedulers and store keys', async () => {
    const create = withExample('POST /c/{connectionId}/scheduled-jobs/queue/{queueName}', {
      path: queuePath(),
      headers: owner(),
    });
    await docs.check(create, 201);
    await docs.check(create, 409);
    await docs.check({ ...create, path: { ...queuePath(), queueName: 'new:queue' } }, 400); // UNSUPPORTED_QUEUE_NAME
    const scheduler = { ...queuePath(), schedulerId: (create.body as { schedulerId: string }).schedulerId };
    await docs.check(
      { operation: 'GET /c/{connectionId}/scheduled-jobs', path: { connectionId: state.main! }, headers: owner() },
      200,
    );
    await docs.check(
      { operation: 'GET /c/{connectionId}/scheduled-jobs/queue/{queueName}', path: queuePath(), headers: owner() },
      200,
    );
    await docs.check(
      {
        operation: 'GET /c/{connectionId}/scheduled-jobs/queue/{queueName}/{schedulerId}',
        path: scheduler,
        headers: owner(),
      },
      200,
    );
    await docs.check(
      withExample('PUT /c/{connectionId}/scheduled-jobs/queue/{queueName}/{schedulerId}', {
        path: scheduler,
        headers: owner(),
      }),
      200,
    );
    await docs.check(
      {
        operation: 'DELETE /c/{connectionId}/scheduled-jobs/queue/{queueName}/{schedulerId}',
        path: scheduler,
        headers: owner(),
      },
      200,
    );
    await docs.check(
      {
        operation: 'GET /c/{connectionId}/scheduled-jobs/queue/{queueName}/{schedulerId}',
        path: scheduler,
        headers: owner(),
      },
      404,
    );

    const scratch = `scratch-${store.prefix}`;
    await store.redis.set(scratch, 'value');
    const connection = { connectionId: state.main! };
    await docs.check(
      {
        operation: 'GET /c/{connectionId}/store-keys/search',
        path: connection,
        query: { pattern: `${store.prefix}*` },
        headers: owner(),
      },
      200,
    );
    await docs.check(
      {
        operation: 'GET /c/{connectionId}/store-keys/value/{key}',
        path: { ...connection, key: `${store.prefix}:emails:meta` },
        headers: owner(),
      },
      200,
    );
    await docs.check(
      {
        operation: 'GET /c/{connectionId}/store-keys/value/{key}',
        path: { ...connection, key: `${scratch}-missing` },
        headers: owner(),
      },
      404,
    );
    await docs.check(
      {
        operation: 'DELETE /c/{connectionId}/store-keys/{key}',
        path: { ...connection, key: `${store.prefix}:emails:meta` },
        headers: owner(),
      },
      403,
    );
    await docs.check(
      {
        operation: 'DELETE /c/{connectionId}/store-keys/{key}',
        path: { ...connection, key: scratch },
        headers: owner(),
      },
      200,
    );
    await docs.check(
      {
        operation: 'DELETE /c/{connectionId}/store-keys/{key}',
        path: { ...connection, key: scratch },
        headers: owner(),
      },
      404,
    );
  });

  it('queue actions: pause, resume, clean, purge, obliterate, delete', async () => {
    await docs.check(
      {
        operation: 'POST /c/{connectionId}/queues/{queueName}/obliterate',
        path: queuePath(),
        headers: owner(),
        body: { confirmName: 'Emails' },
      },
      400,
    );
    for (const action of ['pause', 'resume', 'clean', 'obliterate']) {
      await docs.check(
        withExample(`POST /c/{connectionId}/queues/{queueName}/${action}`, { path: queuePath(), headers: owner() }),
        200,
      );
    }
    await queue.add('again', {});
    const purge = withExample('POST /c/{connectionId}/queues/{queueName}/purge', {
      path: queuePath(),
      headers: owner(),
    });
    await docs.check({ ...purge, body: { ...(purge.body as object), confirmName: 'Emails' } }, 400);
    await docs.check({ ...purge, body: { confirmName: 'emails', statuses: ['waiting'] } }, 200);
    await queue.add('blocking', {});
    const remove = { operation: 'DELETE /c/{connectionId}/queues/{queueName}', path: queuePath(), headers: owner() };
    await docs.check({ ...remove, query: { confirmName: 'Emails' } }, 400);
    await docs.check({ ...remove, query: { confirmName: 'emails' } }, 409);
    await docs.check({ ...purge, body: { confirmName: 'emails', statuses: ['all'] } }, 200);
    await docs.check({ ...remove, query: { confirmName: 'emails' } }, 200);
  });

  it('a protected connection: 403 CONNECTION_PROTECTED with its fields, on a write and on a destructive action', async () => {
    const patch = { operation: 'PATCH /connections/{id}', path: { id: state.main! }, headers: owner() };
    // Protection is judged on the parsed input of a call that reaches its queue: the queue must exist.
    const job = await docs.check(
      {
        operation: 'POST /c/{connectionId}/queues/{queueName}/jobs',
        path: queuePath(),
        headers: owner(),
        body: { name: 'guarded', data: {} },
      },
      201,
    );
    await docs.check({ ...patch, body: { protection: 'confirm' } }, 200);
    const clean = withExample('POST /c/{connectionId}/queues/{queueName}/clean', {
      path: queuePath(),
      headers: owner(),
    });
    expect((await docs.check(clean, 403)).body).toMatchObject({
      code: 'CONNECTION_PROTECTED',
      protection: 'confirm',
      confirmName: 'emails',
    });
    await docs.check({ ...patch, body: { protection: 'read-only' } }, 200);
    expect(
      (
        await docs.check(
          {
            operation: 'POST /c/{connectionId}/queues/{queueName}/pause',
            path: queuePath(),
            headers: owner(),
            body: {},
          },
          403,
        )
      ).body.protection,
    ).toBe('read-only');
    await docs.check({ ...patch, body: { protection: 'none' } }, 200);
    await docs.check(
      {
        operation: 'POST /c/{connectionId}/queues/{queueName}/jobs/remove',
        path: queuePath(),
        headers: owner(),
        body: { jobIds: [job.body.id] },
      },
      200,
    );
  });
}
