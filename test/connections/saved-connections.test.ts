import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { createConnection } from '../../routers/connections/create-connection.js';
import { Organization } from '../../server/persistence/entities/organization.js';
import { bootApp, persistenceKinds, request } from '../helpers/app.js';
import { readConnectionRows } from '../helpers/connections.js';
import {
  app,
  create,
  defaults,
  list,
  password,
  patch,
  remove,
  useSavedConnectionsApp,
} from './support/saved-connections-app.js';

describe.each(persistenceKinds)('saved connections on %s persistence', (persistence) => {
  useSavedConnectionsApp(persistence);

  it('creates with 201 and answers every route with the URL redacted, never logging the password', async () => {
    const created = await create({
      name: 'primary',
      url: `redis://:${password}@127.0.0.1:6379/2`,
      environment: 'production',
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'primary',
      url: 'redis://:****@127.0.0.1:6379/2',
      kind: 'redis',
      schema: null,
      environment: 'production',
      prefix: 'bull',
      prefixes: ['bull'],
      isDefault: true,
      tls: { enabled: false, allowSelfSigned: false },
      cluster: false,
      protection: 'none',
      source: 'saved',
      createdAt: expect.any(String),
      updatedAt: created.body.createdAt,
    });
    const withUser = await create({ name: 'acl', url: `redis://admin:${password}@127.0.0.1:6379` });
    expect(withUser.body.url).toBe('redis://****:****@127.0.0.1:6379');
    expect((await request(`${app.api}/connections/${created.body.id}`)).body).toEqual(created.body);
    expect(await app.trpc.connections.get.query({ id: created.body.id })).toEqual(created.body);
    const everything = JSON.stringify([await list(), await app.trpc.connections.list.query(), app.logs]);
    expect(everything).not.toContain(password);
  });

  it('keeps the URL encrypted at rest: the row holds neither the password nor the host', async () => {
    const rows = await readConnectionRows(app);
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(JSON.stringify(row)).not.toContain(password);
      expect(String(row.url_sealed)).toMatch(/^v1\./);
      expect(String(row.url_sealed)).not.toContain('127.0.0.1');
    }
  });

  it('keeps exactly one default: moved by isDefault, handed on when unset or deleted', async () => {
    const second = (await create({ name: 'second', url: 'redis://127.0.0.1:6379/3', isDefault: true })).body;
    expect(await defaults()).toEqual(['second']);
    expect((await list())[0]!.name).toBe('second');
    const third = (await create({ name: 'third', url: 'redis://127.0.0.1:6379/4' })).body;
    expect(third.isDefault).toBe(false);
    expect((await patch(third.id, { isDefault: true })).body.isDefault).toBe(true);
    expect(await defaults()).toEqual(['third']);
    // Unsetting the default hands it to the oldest other connection ("primary").
    expect((await patch(third.id, { isDefault: false })).body.isDefault).toBe(false);
    expect(await defaults()).toEqual(['primary']);
    const primaryId = (await list()).find((connection) => connection.name === 'primary')!.id;
    const deleted = await remove(primaryId);
    expect(deleted.status).toBe(200);
    const promoted = (await list()).find((connection) => connection.isDefault)!;
    expect(deleted.body).toEqual({ success: true, id: primaryId, deleted: true, defaultId: promoted.id });
    expect(promoted.name).toBe('acl');
    await remove(second.id);
    await remove(third.id);
    expect((await remove(promoted.id)).body.defaultId).toBeNull();
    expect(await list()).toEqual([]);
  });

  it('changes the URL and closes the live client of the old one', async () => {
    const saved = (await create({ name: 'live', url: 'redis://127.0.0.1:6379/5' })).body;
    const [connection] = await app.services.connections.list(app.services.persistence.localOrganizationId());
    const before = app.services.stores.handle(connection!);
    await before.client.ping();
    const ended = once(before.client, 'end');
    const changed = await patch(saved.id, { url: `redis://:${password}@127.0.0.1:6379/6` });
    expect(changed.status).toBe(200);
    expect(changed.body.url).toBe('redis://:****@127.0.0.1:6379/6');
    expect(Date.parse(changed.body.updatedAt)).toBeGreaterThanOrEqual(Date.parse(saved.updatedAt));
    await ended;
    expect(app.services.stores.handle((await app.services.connections.find(saved.id))!)).not.toBe(before);
    expect((await app.services.connections.find(saved.id))!.url).toBe(`redis://:${password}@127.0.0.1:6379/6`);
    await remove(saved.id);
  });

  it('answers 404 for an unknown id and 403 for another organization, on every route', async () => {
    const em = app.services.persistence.fork();
    const organizationId = randomUUID();
    em.create(Organization, {
      id: organizationId,
      name: 'Other',
      slug: `other-${organizationId}`,
      isLocal: false,
      createdAt: new Date(),
    });
    await em.flush();
    const foreign = await createConnection({
      em: app.services.persistence.fork(),
      cipher: app.services.urlCipher,
      policy: app.services.targetPolicy,
      organizationId,
      input: { name: 'theirs', url: 'redis://127.0.0.1:6379' },
    });
    const unknown = randomUUID();
    for (const [id, status] of [
      [unknown, 404],
      [foreign.id, 403],
    ] as const) {
      expect((await request(`${app.api}/connections/${id}`)).status).toBe(status);
      expect((await patch(id, { name: 'mine' })).status).toBe(status);
      expect((await remove(id)).status).toBe(status);
      expect((await request(`${app.api}/connections/test`, { method: 'POST', body: { id } })).status).toBe(status);
    }
    expect((await list()).map((connection) => connection.id)).not.toContain(foreign.id);
    expect((await app.services.connections.find(foreign.id))!.name).toBe('theirs');
  });
});

describe('OpenAPI document', () => {
  it('documents 201 for POST /connections', async () => {
    const app = await bootApp();
    try {
      const document = (await request(`${app.api}/openapi.json`)).body;
      expect(Object.keys(document.paths['/connections'].post.responses)).toContain('201');
      expect(Object.keys(document.paths['/connections'].post.responses)).not.toContain('200');
    } finally {
      await app.close();
    }
  });
});
