import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootApp, request, type TestApp } from '../helpers/app.js';
import { repoRoot } from '../helpers/process.js';
import { storeFixture } from '../helpers/stores.js';

const store = storeFixture();
/** A second environment connection whose Redis never answers (nothing listens on port 1). */
const deadStoreEnv = { SERVICE_REDIS_URL_DEAD: 'redis://127.0.0.1:1/0' };
let app: TestApp;
let unready: TestApp;

beforeAll(async () => {
  [app, unready] = await Promise.all([
    bootApp({ env: store.env }),
    bootApp({ env: { ...store.env, ...deadStoreEnv } }),
  ]);
});
afterAll(async () => {
  await Promise.all([app.close(), unready.close()]);
  await store.cleanup();
});

describe('GET /api/ready', () => {
  it("answers 200 when the database and every environment connection's store answer", async () => {
    const { status, body } = await request(`${app.api}/ready`);
    expect(status).toBe(200);
    expect(body).toEqual({
      status: 'ready',
      checks: { database: { ok: true, mode: 'embedded' }, stores: [{ connectionId: 'main', ok: true }] },
    });
  });

  it('answers 503 naming the store that does not answer, with the checks in the body', async () => {
    const { status, body } = await request(`${unready.api}/ready`);
    expect(status).toBe(503);
    expect(body.code).toBe('STORE_UNAVAILABLE');
    expect(body.message).toMatch(/^Not ready: the store of connection "dead" \(.+\) does not answer$/);
    expect(body.checks.database).toEqual({ ok: true, mode: 'embedded' });
    expect(body.checks.stores).toEqual(
      expect.arrayContaining([
        { connectionId: 'main', ok: true },
        expect.objectContaining({ connectionId: 'dead', ok: false }),
      ]),
    );
    // Liveness is unaffected: /api/health stays 200 as the spec has it.
    expect((await request(`${unready.api}/health`)).status).toBe(200);
  });
});

describe('GET /api/ready without a usable database', () => {
  it('answers 503 DATABASE_UNAVAILABLE naming the database', async () => {
    // As root, chmod does not deny writes: a directory below a regular file can never be created.
    const scratch = await mkdtemp(path.join(tmpdir(), 'bullpen-ready-'));
    await writeFile(path.join(scratch, 'a-file'), '');
    const broken = await bootApp({ env: { ...store.env, SERVICE_EMBEDDED_DIR: path.join(scratch, 'a-file', 'data') } });
    try {
      const { status, body } = await request(`${broken.api}/ready`);
      expect(status).toBe(503);
      expect(body.code).toBe('DATABASE_UNAVAILABLE');
      expect(body.message).toMatch(/^Not ready: the embedded database \(.*not writable.*\) does not answer$/);
      expect(body.checks.stores).toEqual([{ connectionId: 'main', ok: true }]);
    } finally {
      await broken.close();
      await rm(scratch, { recursive: true, force: true });
    }
  });
});

describe('one version', () => {
  it('is the same in package.json, the client package, the OpenAPI document and GET /api/health', async () => {
    const manifest = async (file: string) =>
      JSON.parse(await readFile(path.join(repoRoot, file), 'utf8')) as { version: string };
    const [service, client] = await Promise.all([manifest('package.json'), manifest('client/package.json')]);
    expect(service.version).toMatch(/^\d+\.\d+\.\d+(-[\w.]+)?$/);
    expect(client.version).toBe(service.version);
    expect((await request(`${app.api}/openapi.json`)).body.info.version).toBe(service.version);
    expect((await request(`${app.api}/health`)).body.version).toBe(service.version);
  });
});
