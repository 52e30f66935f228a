import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootApp, request, type TestApp } from '../helpers/app.js';
import { asBrowser, bearer, signUp } from '../helpers/auth.js';
import { connectAgent, toolJson } from '../helpers/mcp.js';

/**
 * Rate limits over MCP are the REST ones, per token: connecting costs its two
 * requests (initialize, then the initialized notification), a tool call one,
 * like the REST call it is; the budget is the same one REST calls draw on.
 */
describe('the MCP endpoint under rate limits', () => {
  let app: TestApp;
  let token: string;
  beforeAll(async () => {
    app = await bootApp({ env: { RATE_LIMIT_ENABLED: 'true', RATE_LIMIT_MAX: '6', RATE_LIMIT_WINDOW_SECONDS: '60' } });
    const owner = await signUp(app, 'owner');
    token = (
      await request(`${app.api}/auth/tokens`, {
        method: 'POST',
        headers: asBrowser(app, owner),
        body: { name: 'agent' },
      })
    ).body.token;
  });
  afterAll(() => app?.close());

  it('counts each tool call once against the token’s budget, shared with REST, then refuses with RATE_LIMITED', async () => {
    const client = await connectAgent(app, bearer(token));
    for (let call = 0; call < 3; call++)
      expect((await client.callTool({ name: 'connections_list', arguments: {} })).isError).toBeFalsy();
    expect((await request(`${app.api}/connections`, { headers: bearer(token) })).status).toBe(200);
    const limited = await client.callTool({ name: 'connections_list', arguments: {} });
    expect(toolJson(limited)).toMatchObject({ code: 'RATE_LIMITED', retryAfterSeconds: expect.any(Number) });
    const listing = await request(`${app.api}/mcp`, {
      method: 'POST',
      headers: { ...bearer(token), accept: 'application/json, text/event-stream' },
      body: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    });
    expect([listing.status, listing.body.code, Number(listing.headers.get('retry-after')) > 0]).toEqual([
      429,
      'RATE_LIMITED',
      true,
    ]);
    await client.close();
  });
});
