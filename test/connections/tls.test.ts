import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { connectionParams } from '../../contracts/params.js';
import { router } from '../../server/trpc/init.js';
import { connectionProcedure } from '../../server/trpc/procedures.js';
import { bootApp, request, type TestApp } from '../helpers/app.js';
import { testEncryptionKey } from '../helpers/connections.js';
import { startRedisServer, type RedisServer } from '../helpers/redis-server.js';
import { serveTestRouter } from '../helpers/test-router.js';

const run = promisify(execFile);
const tlsPort = 6381;
const tlsUrl = `rediss://127.0.0.1:${tlsPort}`;

const pingRouter = router({
  ping: connectionProcedure
    .meta({ permission: 'queues.read', openapi: { method: 'GET', path: '/c/{connectionId}/ping' } })
    .input(connectionParams)
    .output(z.object({ reply: z.string() }))
    .query(async ({ ctx }) => ({ reply: await ctx.store.client.ping() })),
});

describe('TLS stores (rediss://) with a self-signed certificate', () => {
  let directory: string;
  let redis: RedisServer;
  let app: TestApp;
  let routes: Awaited<ReturnType<typeof serveTestRouter>>;
  const test = (body: unknown) => request(`${app.api}/connections/test`, { method: 'POST', body });
  const save = async (body: Record<string, unknown>) =>
    (await request(`${app.api}/connections`, { method: 'POST', body })).body;

  beforeAll(async () => {
    directory = await mkdtemp(path.join(tmpdir(), 'bullpen-tls-'));
    await run(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=localhost',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
        '-keyout',
        'key.pem',
        '-out',
        'cert.pem',
      ],
      { cwd: directory },
    );
    redis = await startRedisServer(
      [
        '--port',
        '0',
        '--tls-port',
        String(tlsPort),
        '--tls-cert-file',
        'cert.pem',
        '--tls-key-file',
        'key.pem',
        '--tls-auth-clients',
        'no',
      ],
      directory,
    );
    app = await bootApp({ env: { SERVICE_AUTHLESS: 'true', SERVICE_ENCRYPTION_KEY: testEncryptionKey } });
    routes = await serveTestRouter(app.services, pingRouter);
  });

  afterAll(async () => {
    routes?.close();
    await app?.close();
    await redis?.stop();
    await rm(directory, { recursive: true, force: true });
  });

  it('connects when the connection allows self-signed certificates', async () => {
    const { body } = await test({ url: tlsUrl, tls: { allowSelfSigned: true } });
    expect(body).toMatchObject({ ok: true, mode: 'standalone', redisVersion: expect.any(String) });
  });

  it('rejects the certificate otherwise, with the test route’s one failure message (it tells nothing about the port)', async () => {
    const { status, body } = await test({ url: tlsUrl });
    expect(status).toBe(200);
    expect(body).toMatchObject({ ok: false, error: `no Redis server answered at 127.0.0.1:${tlsPort}` });
  });

  it('gives up within 3 s when plain redis:// meets the TLS port', async () => {
    const started = performance.now();
    const { body } = await test({ url: `redis://127.0.0.1:${tlsPort}` });
    expect(body.ok).toBe(false);
    expect(performance.now() - started).toBeLessThan(3000);
  });

  it('applies the per-connection choice to saved connections and their live client', async () => {
    const trusting = await save({ name: 'tls-self-signed', url: tlsUrl, tls: { allowSelfSigned: true } });
    expect(trusting.tls).toEqual({ enabled: true, allowSelfSigned: true });
    expect((await request(`${routes.api}/c/${trusting.id}/ping`)).body).toEqual({ reply: 'PONG' });
    const strict = await save({ name: 'tls-strict', url: tlsUrl });
    expect(strict.tls).toEqual({ enabled: true, allowSelfSigned: false });
    const refused = await request(`${routes.api}/c/${strict.id}/ping`);
    expect(refused.status).toBe(503);
    expect(refused.body.code).toBe('STORE_UNAVAILABLE');
  });
});
