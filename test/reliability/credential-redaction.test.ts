import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redactParameters } from '../../server/audit/redact.js';
import { redactUrlCredentials } from '../../server/secrets/redact-credentials.js';
import { bootApp, request, type TestApp } from '../helpers/app.js';
import { testEncryptionKey } from '../helpers/connections.js';

const secret = 'Hunter2Secret';

describe('the one credential redaction', () => {
  it('masks userinfo and every credential-bearing query parameter, keeps the rest', () => {
    const masked = redactUrlCredentials(
      `failed: redis://admin:${secret}@cache:6391/0?password=${secret}&db=2&user=bob&sentinelPassword=${secret}&api_key=${secret}&family=4`,
    );
    expect(masked).not.toContain(secret);
    expect(masked).not.toContain('bob');
    expect(masked).toContain('redis://****:****@cache:6391/0?password=****&db=2&user=****');
    expect(masked).toContain('&family=4');
  });

  it('masks every member of a seed list and survives malformed escapes', () => {
    const masked = redactUrlCredentials(`redis://:${secret}%PW@a:1?token=${secret},rediss://u:${secret}@b:2`);
    expect(masked).not.toContain(secret);
    expect(masked).toBe('redis://:****@a:1?token=****,rediss://****:****@b:2');
  });

  it('reaches URLs in nested audit parameters', () => {
    const parameters = redactParameters({ outer: { list: [{ target: `redis://h:6379?pass=${secret}` }] } });
    expect(JSON.stringify(parameters)).not.toContain(secret);
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
    for (const text of [JSON.stringify(tested.body), JSON.stringify(created.body), JSON.stringify(audit.body), app.logs.join('')]) {
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
});
