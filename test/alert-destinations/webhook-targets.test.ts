import { describe, expect, it } from 'vitest';
import { request } from '../helpers/app.js';
import { queueTestBed } from '../helpers/queues.js';

describe('webhook targets are policed (SERVICE_WEBHOOK_ALLOW)', () => {
  const bed = queueTestBed({ SERVICE_WEBHOOK_ALLOW: '127.0.0.1:9,hooks.example.test' });
  const create = (url: string) =>
    request(`${bed.app.api}/alerts/destinations`, { method: 'POST', body: { type: 'webhook', name: 'x', url } });

  it('refuses a target outside the list and a link-local one, and takes a listed one', async () => {
    const outside = await create('http://127.0.0.1:8080/hook');
    expect(outside.status).toBe(400);
    expect(outside.body).toMatchObject({ code: 'WEBHOOK_TARGET_FORBIDDEN', target: '127.0.0.1:8080' });
    expect(outside.body.message).toMatch(/SERVICE_WEBHOOK_ALLOW/);
    const metadata = await create('http://169.254.169.254/latest/meta-data');
    expect(metadata.body.code).toBe('WEBHOOK_TARGET_FORBIDDEN');
    expect(metadata.body.message).toMatch(/link-local/);
    expect((await create('http://127.0.0.1:9/hook')).status).toBe(201);
    expect((await request(`${bed.app.api}/alerts/destinations`)).body.destinations).toHaveLength(1);
  });
});
