import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordAuditEvent } from '../../server/audit/record-audit-event.js';
import { redactParameters, redactStoredParameters } from '../../server/audit/redact.js';
import { redactUrlCredentials } from '../../server/secrets/redact-credentials.js';
import { bootApp, request, type TestApp } from '../helpers/app.js';
import { testEncryptionKey } from '../helpers/connections.js';

const secret = 'Hunter2Secret';

describe('the one URL redaction', () => {
  it('keeps scheme, host and port: userinfo masked, path, query and fragment gone', () => {
    const masked = redactUrlCredentials(
      `failed: redis://admin:${secret}@cache:6391/0?password=${secret}&db=2&user=bob&family=4 and https://hooks.slack.com/services/T0/B0/${secret}#x.`,
    );
    expect(masked).toBe('failed: redis://****:****@cache:6391/… and https://hooks.slack.com/…');
  });

  it.each([
    ['a Redis URL keeps its database number', 'rediss://:pw@cache:6380/3', 'rediss://:****@cache:6380/3'],
    ['a bare origin stays as it is', 'http://127.0.0.1:3000', 'http://127.0.0.1:3000'],
    ['a query without a path', `https://a.example?token=${secret}`, 'https://a.example/…'],
    ['a raw @ in a password', `redis://:${secret}@x@h:1/0`, 'redis://:****@h:1/0'],
    ['a backslash ends the host', `http://h\\${secret}/x`, 'http://h/…'],
    ['a user without a password', `https://${secret}@h/`, 'https://****:****@h/'],
  ])('%s', (_what, url, expected) => {
    expect(redactUrlCredentials(url)).toBe(expected);
  });

  it('redacts every member of a seed list and survives malformed escapes', () => {
    const masked = redactUrlCredentials(`redis://:${secret}%PW@a:1?token=${secret},rediss://u:${secret}@b:2`);
    expect(masked).not.toContain(secret);
    expect(masked).toBe('redis://:****@a:1/…,rediss://****:****@b:2');
  });

  it('reaches URLs in nested audit parameters, and again in stored ones on their way out', () => {
    const parameters = redactParameters({ outer: { list: [{ target: `redis://h:6379?pass=${secret}` }] } });
    expect(JSON.stringify(parameters)).not.toContain(secret);
    const stored = { url: `https://hooks.example/${secret}`, data: `${'x'.repeat(1000)}…(5000 chars)` };
    expect(redactStoredParameters(stored)).toEqual({ url: 'https://hooks.example/…', data: stored.data });
  });
});

describe('credentials in a connection URL query string never leave', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await bootApp({ env: { SERVICE_AUTHLESS: 'true', SERVICE_ENCRYPTION_KEY: testEncryptionKey } });
  });
  afterAll(() => app.close());

  it('is masked in the audit, the responses and the logs', async () => {
    const url = `redis://127.0.0.1:1/0?password=${secret}`;
    const tested = await request(`${app.api}/connections/test`, { method: 'POST', body: { url } });
    const created = await request(`${app.api}/connections`, { method: 'POST', body: { name: 'leaky', url } });
    expect(created.status).toBe(201);
    const audit = await request(`${app.api}/audit`);
    expect(audit.status).toBe(200);
    expect(audit.body.events.length).toBeGreaterThanOrEqual(2);
    for (const text of [
      JSON.stringify(tested.body),
      JSON.stringify(created.body),
      JSON.stringify(audit.body),
      app.logs.join(''),
    ]) {
      expect(text).not.toContain(secret);
    }
  });

  it('logs the route template of a request, never its raw path', async () => {
    const rawSegment = `tok${secret}`;
    await request(`${app.api}/connections/${rawSegment}`);
    const requestLines = app.logs.filter((line) => line.includes('request completed'));
    expect(requestLines.filter((line) => line.includes('"route":"/api/connections/{id}"'))).toHaveLength(1);
    expect(requestLines.join('')).not.toContain(rawSegment);
  });

  it('redacts, on the way out, an audit row an older version wrote with a webhook URL whole', async () => {
    await recordAuditEvent(app.services, {
      actor: {
        kind: 'user',
        userId: null,
        tokenId: null,
        organizationId: app.services.persistence.localOrganizationId(),
      },
      action: 'alerts.write',
      procedure: 'alertDestinations.create',
      connectionId: null,
      queueName: null,
      parameters: { type: 'slack', name: 'legacy', url: `https://hooks.slack.com/services/T0/B0/${secret}` },
      outcome: 'success',
      errorCode: null,
      counts: null,
    });
    const listed = await request(`${app.api}/audit?action=alerts.write`);
    expect(listed.body.events.map((event: { parameters: unknown }) => event.parameters)).toContainEqual({
      type: 'slack',
      name: 'legacy',
      url: 'https://hooks.slack.com/…',
    });
    const exported = await (await fetch(`${app.api}/audit/export`)).text();
    expect(exported).toContain('"url":"https://hooks.slack.com/…"');
    expect(JSON.stringify(listed.body) + exported).not.toContain(secret);
  });
});
