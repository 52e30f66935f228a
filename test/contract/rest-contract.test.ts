import { copyFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Queue, Worker } from 'bullmq';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootApp, request, type TestApp } from '../helpers/app.js';
import { waitFor } from '../helpers/jobs.js';
import { repoRoot } from '../helpers/process.js';
import { storeFixture } from '../helpers/stores.js';
import { compileStrict, lineOf } from '../helpers/compile-strict.js';

/** What the compiled client exports (its own types live in the generated world, not this project's). */
type RestClient = Record<'listQueues' | 'purgeQueue' | 'deleteQueue', (...args: unknown[]) => Promise<unknown>>;

const sources = path.join(import.meta.dirname, 'rest-client');
/** Generated types and compiled client stay here for inspection (gitignored). */
const workDir = path.join(repoRoot, 'test-artifacts', `rest-contract-${process.pid}`);

const store = storeFixture();
let app: TestApp;
let queue: Queue;

beforeAll(async () => {
  app = await bootApp({ env: { ...store.env, SERVICE_QUEUE_LIST_CACHE_MS: '0' } });
  queue = new Queue('invoices', store.bullmq);
  await queue.addBulk([
    { name: 'a', data: { fail: true } },
    { name: 'b', data: { fail: true } },
    { name: 'c', data: { fail: false } },
  ]);
  let settled = 0;
  const worker = new Worker(
    'invoices',
    async (job) => {
      if (job.data.fail) throw new Error('declined');
    },
    store.bullmq,
  );
  worker.on('completed', () => settled++);
  worker.on('failed', () => settled++);
  await waitFor(() => settled === 3, 10_000, 'jobs to settle');
  await worker.close();
  await rm(workDir, { recursive: true, force: true });
  await mkdir(path.join(workDir, 'out'), { recursive: true });
});

afterAll(async () => {
  await queue.close();
  await app.close();
  await store.cleanup();
  await rm(workDir, { recursive: true, force: true });
});

describe('REST contract for outside tools (openapi-typescript + tsc)', () => {
  let client: RestClient;

  let diagnostics: ts.Diagnostic[];
  let misuseFile: string;

  it('generates types from /api/openapi.json and compiles a plain REST client against them', async () => {
    const document = (await request(`${app.api}/openapi.json`)).body;
    const schema = astToString(await openapiTS(document, { silent: true }));
    expect(schema).toContain('"/c/{connectionId}/queues/{queueName}/purge"');
    await writeFile(path.join(workDir, 'schema.ts'), schema);
    await writeFile(path.join(workDir, 'package.json'), '{ "type": "module" }\n');
    await copyFile(path.join(sources, 'rest-client.ts'), path.join(workDir, 'rest-client.ts'));
    misuseFile = path.join(workDir, 'misuse.ts');
    await copyFile(path.join(sources, 'misuse.ts'), misuseFile);

    // One program for both (one load of the libs); misuse.ts must fail, the client must not.
    diagnostics = compileStrict([path.join(workDir, 'rest-client.ts'), misuseFile], path.join(workDir, 'out'), {
      noUncheckedIndexedAccess: true,
    });
    const clientProblems = diagnostics.filter((d) => d.file?.fileName !== misuseFile);
    expect(clientProblems.map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'))).toEqual([]);
    await writeFile(path.join(workDir, 'out', 'package.json'), '{ "type": "module" }\n');
    client = await import(/* @vite-ignore */ pathToFileURL(path.join(workDir, 'out', 'rest-client.js')).href);
  });

  it('rejects misuse at compile time: the generated types are precise', async () => {
    const misuse = await readFile(misuseFile, 'utf8');
    const expected = misuse.split('\n').flatMap((line, index) => (line.includes('// expect-error') ? [index + 1] : []));
    expect(expected).toHaveLength(3);
    const misuseLines = diagnostics.filter((d) => d.file?.fileName === misuseFile).map(lineOf);
    expect([...new Set(misuseLines)].sort((a, b) => a - b)).toEqual(expected);
  });

  it('lists queues through the compiled client', async () => {
    const listed = await client.listQueues(app.api, { connectionId: 'main' }, { search: 'invoices' });
    expect(listed).toMatchObject({
      ok: true,
      body: { total: 1, queues: [{ name: 'invoices', jobCounts: { failed: 2, completed: 1 } }] },
    });
  });

  it('gets typed error bodies: 400 on a purge confirmation mismatch, 409 with its route fields on a busy delete', async () => {
    const mismatch = await client.purgeQueue(
      app.api,
      { connectionId: 'main', queueName: 'invoices' },
      { confirmName: 'Invoices', statuses: ['failed'] },
    );
    expect(mismatch).toMatchObject({ ok: false, status: 400, error: { code: 'CONFIRMATION_MISMATCH' } });

    const busy = await client.deleteQueue(
      app.api,
      { connectionId: 'main', queueName: 'invoices' },
      { confirmName: 'invoices' },
    );
    expect(busy).toMatchObject({
      ok: false,
      status: 409,
      error: { code: 'QUEUE_NOT_EMPTY', jobCounts: { failed: 2 } },
    });
    expect(await queue.getJobCounts('failed', 'completed')).toEqual({ failed: 2, completed: 1 });

    const purged = await client.purgeQueue(
      app.api,
      { connectionId: 'main', queueName: 'invoices' },
      { confirmName: 'invoices', statuses: ['failed'] },
    );
    expect(purged).toMatchObject({ ok: true, body: { totalRemoved: 2, removedByStatus: { failed: 2 } } });
  });

  it("documents each route's own error responses: purge's 409 is the batch cap with its fields", async () => {
    const document = (await request(`${app.api}/openapi.json`)).body;
    const purge = document.paths['/c/{connectionId}/queues/{queueName}/purge'].post.responses;
    // 409 also says an Idempotency-Key's first request still runs (purge may create a task): both codes, each its line.
    expect(purge['409'].description).toMatch(/^- `PURGE_CAP_REACHED`: Safety cap of 500 batches/m);
    expect(purge['409'].description).toMatch(/^- `IDEMPOTENCY_KEY_IN_USE`: /m);
    const [base, own] = purge['409'].content['application/json'].schema.allOf;
    expect(base).toEqual({ $ref: '#/components/schemas/ErrorBody' });
    expect(own.properties.code.enum).toEqual(['IDEMPOTENCY_KEY_IN_USE', 'PURGE_CAP_REACHED']);
    expect(Object.keys(own.properties)).toEqual(expect.arrayContaining(['status', 'removedSoFar']));
    const addJob409 = document.paths['/c/{connectionId}/queues/{queueName}/jobs'].post.responses['409'];
    expect(addJob409.content['application/json'].schema.allOf[1].properties.code.enum).toEqual([
      'IDEMPOTENCY_KEY_IN_USE',
      'CONFLICT',
    ]);
    expect(document.paths['/connections'].post.responses['409'].description).toMatch(/Name already used/);
  });
});
