import { mkdtemp, rm, stat } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config.js';
import { startServiceProcess } from '../helpers/process.js';

describe('configuration', () => {
  it.each([
    ['PORT', 'not-a-port'],
    ['NODE_ENV', 'staging'],
    ['SERVICE_AUTHLESS', 'maybe'],
    ['DATABASE_URL', 'mysql://root@localhost/x'],
    ['APP_BASE_URL', 'not a url'],
  ])('rejects %s=%s with a message naming the variable', (variable, value) => {
    expect(() => loadConfig({ [variable]: value })).toThrow(new RegExp(`^Invalid ${variable} `));
  });

  it('never echoes a secret-bearing value in the message', () => {
    expect(() => loadConfig({ DATABASE_URL: 'mysql://root:hunter2@db/x' })).toThrow(/<redacted>/);
    expect(() => loadConfig({ DATABASE_URL: 'mysql://root:hunter2@db/x' })).not.toThrow(/hunter2/);
  });

  it('defaults to embedded persistence in ./data on port 3000', () => {
    const config = loadConfig({});
    expect(config.persistence).toEqual({ mode: 'embedded', directory: path.resolve('./data') });
    expect(config.http).toEqual({ port: 3000, host: '0.0.0.0', trustProxyHops: 0, maxResponseBytes: 16 * 1024 * 1024 });
    expect(config.environment).toBe('development');
  });

  it('keeps the task lease short enough for a takeover within 2 minutes', () => {
    expect(loadConfig({}).tasks.leaseTtlMs).toBe(60_000);
    expect(loadConfig({ SERVICE_TASK_LEASE_SECONDS: '10' }).tasks.leaseTtlMs).toBe(10_000);
    for (const refused of ['4', '111'])
      expect(() => loadConfig({ SERVICE_TASK_LEASE_SECONDS: refused })).toThrow(/^Invalid SERVICE_TASK_LEASE_SECONDS /);
  });

  it('selects server persistence when DATABASE_URL is set', () => {
    const url = 'postgres://postgres@127.0.0.1:5432/test';
    expect(
      loadConfig({ DATABASE_URL: url, AUTH_SECRET: 'x'.repeat(32), SERVICE_ENCRYPTION_KEY: 'a'.repeat(64) })
        .persistence,
    ).toEqual({ mode: 'server', databaseUrl: url });
  });
});

describe('the service process', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'bullpen-proc-'));
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  it('stops at startup with one line naming an invalid variable', async () => {
    const service = startServiceProcess({ PORT: '99999', SERVICE_EMBEDDED_DIR: dataDir });
    expect(await service.exited).toBe(1);
    expect(service.output().trim()).toMatch(/^bullpen: Invalid PORT \("99999"\): .+$/);
  });

  it('fails loudly when its port is taken', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      const service = startServiceProcess({ PORT: String(port), HOST: '127.0.0.1', SERVICE_EMBEDDED_DIR: dataDir });
      expect(await service.exited).toBe(1);
      expect(service.output()).toContain(`cannot listen on 127.0.0.1:${port}`);
      expect(service.output()).toContain('EADDRINUSE');
    } finally {
      blocker.close();
    }
  });

  it('refuses to start in production with authentication and no APP_BASE_URL, in one line naming it', async () => {
    const service = startServiceProcess({
      NODE_ENV: 'production',
      PORT: '0',
      HOST: '127.0.0.1',
      SERVICE_EMBEDDED_DIR: dataDir,
    });
    expect(await service.exited).toBe(1);
    expect(service.output().trim()).toMatch(
      /^bullpen: Invalid APP_BASE_URL \(unset\): required in production with authentication on[^\n]*$/,
    );
    expect(loadConfig({ NODE_ENV: 'production', SERVICE_AUTHLESS: 'true' }).auth.appBaseUrl).toBeNull();
  });

  it('creates its data directory 0700 and the SQLite file 0600; without APP_BASE_URL the base URL names the bound port', async () => {
    const fresh = path.join(dataDir, 'fresh');
    const service = startServiceProcess({ PORT: '0', HOST: '127.0.0.1', SERVICE_EMBEDDED_DIR: fresh });
    try {
      const line = await service.waitForOutput(/"appBaseUrl":"[^"]+"/);
      const port = new URL((await service.waitForOutput(/http:\/\/127\.0\.0\.1:\d+/)).trim()).port;
      expect(line).toBe(`"appBaseUrl":"http://localhost:${port}"`);
      expect((await stat(fresh)).mode & 0o777).toBe(0o700);
      expect((await stat(path.join(fresh, 'bullpen.sqlite'))).mode & 0o777).toBe(0o600);
    } finally {
      service.child.kill('SIGTERM');
      await service.exited;
    }
  });

  it("collects startup's garbage before it opens its port, so no request waits for that pause", async () => {
    const service = startServiceProcess({
      PORT: '0',
      HOST: '127.0.0.1',
      SERVICE_EMBEDDED_DIR: dataDir,
      LOG_LEVEL: 'debug',
    });
    await service.waitForOutput(/bullpen listening/);
    const lines = service.output().split('\n');
    const collected = lines.findIndex((line) => line.includes('collected startup garbage'));
    expect(collected).toBeGreaterThanOrEqual(0);
    expect(JSON.parse(lines[collected]!).ms).toBeGreaterThan(0);
    expect(collected).toBeLessThan(lines.findIndex((line) => line.includes('bullpen listening')));
    service.child.kill('SIGTERM');
    expect(await service.exited).toBe(0);
  });

  it('serves health on the embedded default, then shuts down cleanly on SIGTERM', async () => {
    const service = startServiceProcess({ PORT: '0', HOST: '127.0.0.1', SERVICE_EMBEDDED_DIR: dataDir });
    const url = (await service.waitForOutput(/http:\/\/127\.0\.0\.1:\d+/)).trim();
    const health = await fetch(`${url}/api/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({
      status: 'ok',
      checks: { persistence: { ok: true, mode: 'embedded' } },
    });
    service.child.kill('SIGTERM');
    expect(await service.exited).toBe(0);
    expect(service.output()).toContain('shutting down');
  });
});
