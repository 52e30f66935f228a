import { beforeAll, describe, expect, it } from 'vitest';
import { request } from '../helpers/app.js';
import { queueUrl } from '../helpers/jobs.js';
import { queueTestBed } from '../helpers/queues.js';
import { changedEntries, snapshotRedis } from './support/store-snapshot.js';

const bed = queueTestBed();
const { fixture } = bed;
const queueName = 'strict-bodies';

/** Numbers the REST adapter used to coerce: `true` → 1, `null` and `""` → 0, `"5"` → 5. */
const notNumbers: unknown[] = [true, null, '', '5'];

interface BadRequest {
  label: string;
  method: string;
  path: string;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
  /** The field the 400 must name, when the request is a validation failure. */
  field?: string;
  status?: number;
}

function badRequests(jobId: string, schedulerId: string): BadRequest[] {
  const numberCases = (label: string, method: string, path: string, base: Record<string, unknown>, fields: string[]) =>
    fields.flatMap((field) =>
      notNumbers.map((value) => ({
        label: `${label} ${field}=${JSON.stringify(value)}`,
        method,
        path,
        body: { ...base, [field]: value },
        field,
      })),
    );
  return [
    ...numberCases('clean', 'POST', '/clean', { status: 'completed' }, ['gracePeriod', 'limit']),
    {
      label: 'clean limit 2.5',
      method: 'POST',
      path: '/clean',
      body: { status: 'completed', limit: 2.5 },
      field: 'limit',
    },
    ...numberCases('add', 'POST', '/jobs', { name: 'never-added' }, ['priority', 'delay', 'attempts']),
    // `true` is a valid removeOnComplete (a boolean), "5" a valid job id: the rest are not numbers.
    ...notNumbers.slice(1).map((value) => ({
      label: `add removeOnComplete=${JSON.stringify(value)}`,
      method: 'POST',
      path: '/jobs',
      body: { name: 'x', removeOnComplete: value },
      field: 'removeOnComplete',
    })),
    {
      label: 'add backoff.delay "5"',
      method: 'POST',
      path: '/jobs',
      body: { name: 'x', backoff: { type: 'fixed', delay: '5' } },
      field: 'backoff.delay',
    },
    {
      label: 'purge without confirmName',
      method: 'POST',
      path: '/purge',
      body: { statuses: ['all'] },
      field: 'confirmName',
    },
    {
      label: 'purge with another name',
      method: 'POST',
      path: '/purge',
      body: { confirmName: 'other', statuses: ['all'] },
      status: 400,
    },
    {
      label: 'purge statuses as text',
      method: 'POST',
      path: '/purge',
      body: { confirmName: queueName, statuses: 'all' },
      field: 'statuses',
    },
    { label: 'purge with no body', method: 'POST', path: '/purge', status: 400 },
    {
      label: 'obliterate confirmName 5',
      method: 'POST',
      path: '/obliterate',
      body: { confirmName: 5 },
      field: 'confirmName',
    },
    {
      label: 'obliterate with another name',
      method: 'POST',
      path: '/obliterate',
      body: { confirmName: 'other' },
      status: 400,
    },
    { label: 'delete without confirmName', method: 'DELETE', path: '', field: 'confirmName' },
    { label: 'delete confirmName true', method: 'DELETE', path: '', body: { confirmName: true }, status: 400 },
    ...(['retry', 'remove', 'invoke'] as const).flatMap((action): BadRequest[] => [
      ...[true, null, ''].map((value) => ({
        label: `${action} jobIds [${JSON.stringify(value)}]`,
        method: 'POST',
        path: `/jobs/${action}`,
        body: { jobIds: [value] },
        field: 'jobIds',
      })),
      {
        label: `${action} jobIds [-1]`,
        method: 'POST',
        path: `/jobs/${action}`,
        body: { jobIds: [-1] },
        field: 'jobIds',
      },
      {
        label: `${action} jobIds as text`,
        method: 'POST',
        path: `/jobs/${action}`,
        body: { jobIds: jobId },
        field: 'jobIds',
      },
      {
        label: `${action} all "true"`,
        method: 'POST',
        path: `/jobs/${action}`,
        body: { status: 'failed', all: 'true' },
        field: 'all',
      },
      {
        label: `${action} as text/plain`,
        method: 'POST',
        path: `/jobs/${action}`,
        rawBody: `jobIds=${jobId}`,
        headers: { 'content-type': 'text/plain' },
        status: 415,
      },
    ]),
    ...notNumbers.map((value) => ({
      label: `scheduler everyMs ${JSON.stringify(value)}`,
      method: 'PUT',
      path: `scheduler:${schedulerId}`,
      body: { name: 'report', schedule: { everyMs: value } },
      field: 'schedule.everyMs',
    })),
    {
      label: 'key delete of a queue key',
      method: 'DELETE',
      path: `key:${fixture.prefix}:${queueName}:meta`,
      status: 403,
    },
    {
      label: 'key delete with a non-JSON body',
      method: 'DELETE',
      path: `key:${fixture.prefix}-plain`,
      rawBody: 'yes',
      headers: { 'content-type': 'text/plain' },
      status: 415,
    },
  ];
}

function target(path: string): string {
  const connection = `${bed.app.api}/c/${fixture.connectionId}`;
  if (path.startsWith('key:')) return `${connection}/store-keys/${encodeURIComponent(path.slice(4))}`;
  if (path.startsWith('scheduler:')) return `${connection}/scheduled-jobs/queue/${queueName}/${path.slice(10)}`;
  return `${queueUrl(bed.app, fixture, queueName)}${path}`;
}

describe('bad bodies on destructive routes (strict JSON numbers, types, confirmations)', () => {
  let before: Record<string, string>;
  let requests: BadRequest[];

  beforeAll(async () => {
    const queue = await bed.seeded(queueName, { completed: 3, failed: 3, waiting: 2, delayed: 2 });
    await queue.upsertJobScheduler('hourly', { every: 3_600_000 }, { name: 'report' });
    await fixture.redis.set(`${fixture.prefix}-plain`, 'kept');
    const [failed] = await queue.getFailed();
    requests = badRequests(failed!.id!, 'hourly');
    before = await snapshotRedis(fixture.redis, `${fixture.prefix}*`);
  });

  it('answers each with a 4xx naming the offending field, and changes no key of the store', async () => {
    expect(Object.keys(before).length).toBeGreaterThan(20);
    const answers = [];
    for (const bad of requests) {
      const response = await request(target(bad.path), {
        method: bad.method,
        body: bad.body,
        rawBody: bad.rawBody,
        headers: bad.headers,
      });
      answers.push({
        label: bad.label,
        status: response.status,
        named:
          bad.field === undefined ||
          (response.body.issues ?? []).some((issue: { path: unknown[] }) =>
            issue.path.join('.').startsWith(bad.field!),
          ),
      });
    }
    expect(answers).toEqual(requests.map((bad) => ({ label: bad.label, status: bad.status ?? 400, named: true })));
    expect(changedEntries(before, await snapshotRedis(fixture.redis, `${fixture.prefix}*`))).toEqual([]);
  });

  it('still takes decimal text for numbers in query strings', async () => {
    const listed = await request(`${queueUrl(bed.app, fixture, queueName)}/jobs?status=completed&pageSize=2&page=1`);
    expect(listed.status).toBe(200);
    expect(listed.body).toMatchObject({ pageSize: 2, total: 3 });
  });

  it('still acts on real numbers', async () => {
    const cleaned = await request(`${queueUrl(bed.app, fixture, queueName)}/clean`, {
      method: 'POST',
      body: { status: 'completed', gracePeriod: 0, limit: 2 },
    });
    expect(cleaned.status).toBe(200);
    expect(cleaned.body.removed).toBe(2);
  });
});
