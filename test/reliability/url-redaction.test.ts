import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootApp, persistenceKinds, request, type TestApp } from '../helpers/app.js';
import { asBrowser, signUp, sql, type SignedInUser } from '../helpers/auth.js';

/** Every table's every row, as text: what the database holds at rest. */
async function databaseText(app: TestApp): Promise<string> {
  const tables =
    app.config.persistence.mode === 'server'
      ? await sql<{ name: string }>(
          app,
          `select table_name as name from information_schema.tables where table_schema = 'public'`,
        )
      : await sql<{ name: string }>(app, `select name from sqlite_master where type = 'table'`);
  expect(tables.map(({ name }) => name)).toEqual(
    expect.arrayContaining(['audit_event', 'alert_destination', 'connection']),
  );
  const rows = await Promise.all(tables.map(async ({ name }) => [name, await sql(app, `select * from "${name}"`)]));
  return JSON.stringify(rows);
}

/**
 * The secret parts of alert destination and connection URLs (a Slack or
 * webhook path, a query, userinfo) go through every flow that takes or
 * shows them, and none is found in the audit rows, any other table, any
 * response or the service log: only scheme, host and port are kept.
 */
describe.each(persistenceKinds)(
  'destination and connection URLs are redacted everywhere (%s persistence)',
  (persistence) => {
    let app: TestApp;
    let owner: SignedInUser;
    let hooks: Server;
    let hookOrigin: string;
    const responses: string[] = [];
    const secrets = [
      'T0SLACKTEAM',
      'B0SLACKHOOK',
      'slackSecretPath123',
      'hookuser',
      'hookPass456',
      'webhookSecretPath789',
      'hookQuery321',
      'hookFragment',
      'linkLocalSecret654',
      'invalidBodySecret',
      'connuser',
      'connPass987',
      'connQuery654',
      'patchPass111',
      'patchQuery222',
      'probePass333',
    ];

    const call = async (method: string, path: string, body?: unknown) => {
      const response = await request(`${app.api}${path}`, { method, headers: asBrowser(app, owner), body });
      responses.push(
        `${method} ${path} ${response.status} ${JSON.stringify([...response.headers])} ${JSON.stringify(response.body)}`,
      );
      return response;
    };

    beforeAll(async () => {
      hooks = createServer((req, res) => req.resume().on('end', () => res.writeHead(204).end()));
      await new Promise<void>((resolve) => hooks.listen(0, '127.0.0.1', resolve));
      hookOrigin = `127.0.0.1:${(hooks.address() as AddressInfo).port}`;
      app = await bootApp({ persistence, env: { LOG_LEVEL: 'debug' } });
      owner = await signUp(app, 'redaction');
    });
    afterAll(async () => {
      await app?.close();
      await new Promise((resolve) => hooks?.close(resolve));
    });

    it('runs every flow that takes or shows such a URL', async () => {
      const slack = await call('POST', '/alerts/destinations', {
        type: 'slack',
        name: 'ops slack',
        url: `http://${hookOrigin}/services/T0SLACKTEAM/B0SLACKHOOK/slackSecretPath123`,
      });
      expect(slack.status).toBe(201);
      expect(slack.body.url).toBe(`http://${hookOrigin}/…`);
      const webhook = await call('POST', '/alerts/destinations', {
        type: 'webhook',
        name: 'ops hook',
        url: `http://${hookOrigin}/hooks/webhookSecretPath789?token=hookQuery321#hookFragment`,
      });
      expect(webhook.status).toBe(201);
      expect(webhook.body.url).toBe(`http://${hookOrigin}/…`);
      const withUser = await call('POST', '/alerts/destinations', {
        type: 'webhook',
        name: 'basic hook',
        url: `http://hookuser:hookPass456@${hookOrigin}/hooks/x`,
      });
      expect(withUser.status).toBe(201);
      expect(withUser.body.url).toBe(`http://****:****@${hookOrigin}/…`);
      expect(
        (
          await call('POST', '/alerts/destinations', {
            type: 'webhook',
            name: 'metadata',
            url: 'http://169.254.169.254/latest/linkLocalSecret654',
          })
        ).status,
      ).toBe(400);
      expect(
        (
          await call('POST', '/alerts/destinations', {
            type: 'webhook',
            name: '',
            url: `http://${hookOrigin}/invalidBodySecret`,
          })
        ).status,
      ).toBe(400);
      for (const destination of [slack.body, webhook.body]) {
        expect((await call('POST', `/alerts/destinations/${destination.id}/test`, {})).body).toMatchObject({
          delivered: true,
          statusCode: 204,
        });
      }
      // fetch refuses a URL with userinfo; its error quoted the whole URL, password included.
      expect((await call('POST', `/alerts/destinations/${withUser.body.id}/test`, {})).body).toMatchObject({
        delivered: false,
        statusCode: null,
      });
      for (const destination of [slack.body, webhook.body, withUser.body]) {
        expect((await call('GET', `/alerts/destinations/${destination.id}/deliveries`)).body.deliveries).toHaveLength(
          1,
        );
      }
      expect((await call('GET', '/alerts/destinations')).body.destinations).toHaveLength(3);

      const connection = await call('POST', '/connections', {
        name: 'secretive',
        url: 'redis://connuser:connPass987@127.0.0.1:6379/0?password=connQuery654',
      });
      expect(connection.status).toBe(201);
      expect(connection.body.url).toBe('redis://****:****@127.0.0.1:6379/…');
      const patched = await call('PATCH', `/connections/${connection.body.id}`, {
        url: 'redis://:patchPass111@127.0.0.1:6379/1?family=patchQuery222',
      });
      expect(patched.status).toBe(200);
      expect(patched.body.url).toBe('redis://:****@127.0.0.1:6379/…');
      expect((await call('GET', `/connections/${connection.body.id}`)).status).toBe(200);
      expect((await call('GET', '/connections')).status).toBe(200);
      expect((await call('POST', '/connections/test', { url: 'redis://:probePass333@127.0.0.1:1/0' })).body.ok).toBe(
        false,
      );
      expect((await call('DELETE', `/alerts/destinations/${slack.body.id}`)).status).toBe(200);
    });

    it('keeps the audit rows of those calls with scheme, host and port only', async () => {
      const rows = await sql<{ action: string; outcome: string; parameters: string }>(
        app,
        `select action, outcome, parameters from audit_event where action in ('alerts.write', 'connections.write')`,
      );
      const urls = rows.map((row) => (JSON.parse(row.parameters) as { url?: string } | null)?.url).filter(Boolean);
      expect(urls).toEqual(
        expect.arrayContaining([
          `http://${hookOrigin}/…`,
          `http://****:****@${hookOrigin}/…`,
          'http://169.254.169.254/…',
          'redis://****:****@127.0.0.1:6379/…',
          'redis://:****@127.0.0.1:6379/…',
        ]),
      );
      const audit = await call('GET', '/audit?limit=100');
      expect(
        audit.body.events
          .map((event: { parameters: { url?: string } | null }) => event.parameters?.url)
          .filter(Boolean),
      ).toEqual(expect.arrayContaining(urls));
      const exported = await fetch(`${app.api}/audit/export`, { headers: asBrowser(app, owner) });
      responses.push(await exported.text());
    });

    it('finds no secret part in the database, any response or the log', async () => {
      const places = { database: await databaseText(app), responses: responses.join('\n'), log: app.logs.join('') };
      expect(app.logs.length).toBeGreaterThan(20);
      const found = Object.entries(places).flatMap(([where, text]) =>
        secrets.filter((secret) => text.includes(secret)).map((secret) => `${where}: ${secret}`),
      );
      expect(found).toEqual([]);
    });
  },
);
