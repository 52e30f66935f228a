import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootApp, request, type TestApp } from '../helpers/app.js';

describe('embedded data directory that cannot be written', () => {
  let app: TestApp;
  let scratch: string;

  beforeAll(async () => {
    // Tests run as root, for whom chmod does not deny writes: a directory
    // below a regular file can never be created, whoever asks.
    scratch = await mkdtemp(path.join(tmpdir(), 'bullpen-unwritable-'));
    const blocker = path.join(scratch, 'a-file');
    await writeFile(blocker, 'not a directory');
    app = await bootApp({ env: { SERVICE_EMBEDDED_DIR: path.join(blocker, 'data') } });
  });
  afterAll(async () => {
    await app.close();
    await rm(scratch, { recursive: true, force: true });
  });

  it('still starts and serves /api/health, reporting the problem', async () => {
    const { status, body } = await request(`${app.api}/health`);
    expect(status).toBe(200);
    expect(body.status).toBe('degraded');
    expect(body.checks.persistence).toMatchObject({ ok: false, mode: 'embedded' });
    expect(body.checks.persistence.error).toContain('not writable');
  });

  it.each(['/app/config', '/session'])('answers GET %s with 500 and a clear message', async (route) => {
    const { status, body } = await request(`${app.api}${route}`);
    expect(status).toBe(500);
    expect(body.code).toBe('PERSISTENCE_UNAVAILABLE');
    expect(body.message).toMatch(/embedded data directory .* is not writable/);
  });

  it('answers the same 500 over tRPC', async () => {
    await expect(app.trpc.system.appConfig.query()).rejects.toMatchObject({
      data: { code: 'PERSISTENCE_UNAVAILABLE', httpStatus: 500 },
    });
  });
});
