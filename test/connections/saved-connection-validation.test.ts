import { describe, expect, it } from 'vitest';
import { persistenceKinds, request } from '../helpers/app.js';
import { app, create, list, patch, remove, useSavedConnectionsApp } from './support/saved-connections-app.js';

describe.each(persistenceKinds)('saved connections on %s persistence', (persistence) => {
  useSavedConnectionsApp(persistence);

  it('answers 409 for a duplicate name, on create and on rename, and changes nothing', async () => {
    const first = (await create({ name: 'dup', url: 'redis://127.0.0.1:6379' })).body;
    const other = (await create({ name: 'other', url: 'redis://127.0.0.1:6379' })).body;
    const again = await create({ name: 'dup', url: 'redis://127.0.0.1:6380' });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'CONFLICT', field: 'name', message: expect.stringContaining('"dup"') });
    const rename = await patch(other.id, { name: 'dup' });
    expect(rename.status).toBe(409);
    expect((await list()).map((connection) => connection.name).sort()).toEqual(['dup', 'other']);
    await remove(first.id);
    await remove(other.id);
  });

  it.each([
    ['url', { name: 'x', url: 'http://127.0.0.1:6379' }],
    ['url', { name: 'x', url: 'not a url' }],
    ['url', { name: 'x', url: 'redis://127.0.0.1:6379/not-a-db' }],
    ['url', { name: 'x', url: 'redis://a:1,rediss://b:2', cluster: true }],
    ['cluster', { name: 'x', url: 'redis://a:1,redis://b:2', cluster: false }],
    ['tls.enabled', { name: 'x', url: 'rediss://a:1', tls: { enabled: false } }],
    ['prefixes.0', { name: 'x', url: 'redis://a:1', prefixes: ['has space'] }],
    ['environment', { name: 'x', url: 'redis://a:1', environment: 'prod' }],
    ['name', { url: 'redis://a:1' }],
  ])('answers 400 naming %s and saves nothing', async (field, body) => {
    const response = await create(body);
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('VALIDATION_FAILED');
    expect(response.body.message).toContain(`${field}:`);
    expect(await list()).toEqual([]);
  });

  it('validates a PATCH against the stored fields and leaves the row alone on 400', async () => {
    const saved = (await create({ name: 'cl', url: 'redis://127.0.0.1:7000,redis://127.0.0.1:7001', prefix: '{bull}' }))
      .body;
    expect([saved.cluster, saved.prefixes]).toEqual([true, ['{bull}']]);
    const bad = await patch(saved.id, { cluster: false });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('cluster:');
    expect((await request(`${app.api}/connections/${saved.id}`)).body).toEqual(saved);
    await remove(saved.id);
  });

  it('merges prefix and prefixes, the prefix first', async () => {
    const saved = (
      await create({ name: 'p', url: 'redis://127.0.0.1:6379', prefixes: ['jobs', 'bull'], prefix: 'bull' })
    ).body;
    expect([saved.prefix, saved.prefixes]).toEqual(['bull', ['bull', 'jobs']]);
    const changed = (await patch(saved.id, { prefix: 'main' })).body;
    expect(changed.prefixes).toEqual(['main', 'jobs']);
    await remove(saved.id);
  });
});
