import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootApp, persistenceKinds, request, type TestApp } from '../helpers/app.js';
import { addMember, asBrowser, bearer, signUp } from '../helpers/auth.js';
import { connectAgent, toolJson } from '../helpers/mcp.js';
import { seedQueue } from '../helpers/queues.js';
import { permissionedRoutes } from '../helpers/routes.js';
import { redisUrl, storeFixture } from '../helpers/stores.js';
import { appRouter } from '../../routers/_app.js';
import { procedureMetaOf } from '../../server/trpc/trpc-internals.js';

/** Procedures an API token may call: every one with a permission that is not session-only. */
const tokenProcedures = permissionedRoutes().filter(
  (route) => !procedureMetaOf(appRouter, route.procedure)?.sessionOnly,
);

describe.each(persistenceKinds)('the MCP endpoint, driven by the SDK client (%s persistence)', (persistence) => {
  const fixture = storeFixture();
  let app: TestApp;
  let owner: Record<string, string>;
  let queue: Queue;
  const tokens = { agent: { id: '', token: '' }, viewer: { id: '', token: '' }, reader: { id: '', token: '' } };
  const clients: Client[] = [];
  const agent = async (token: string) => {
    const client = await connectAgent(app, bearer(token));
    clients.push(client);
    return client;
  };
  const failedIds = async () => (await queue.getFailed()).map((job) => job.id!).sort();
  const auditOf = async (action: string) =>
    (await request(`${app.api}/audit?action=${action}`, { headers: owner })).body.events;

  beforeAll(async () => {
    app = await bootApp({ persistence });
    const ownerUser = await signUp(app, 'owner');
    owner = asBrowser(app, ownerUser);
    const viewerUser = await signUp(app, 'viewer');
    await addMember(app, ownerUser, ownerUser.organizationId, viewerUser, 'viewer');
    const create = async (headers: Record<string, string>, body: object) =>
      (await request(`${app.api}/auth/tokens`, { method: 'POST', headers, body })).body;
    tokens.agent = await create(owner, { name: 'agent' });
    tokens.reader = await create(owner, { name: 'reader', scope: 'read' });
    tokens.viewer = await create(asBrowser(app, viewerUser, { 'x-organization-id': ownerUser.organizationId }), {
      name: 'viewer',
    });
    for (const [name, protection] of [
      ['live', 'none'],
      ['locked', 'read-only'],
    ]) {
      const created = await request(`${app.api}/connections`, {
        method: 'POST',
        headers: owner,
        body: { name, url: `${redisUrl}/0`, prefixes: [fixture.prefix], protection },
      });
      expect(created.status).toBe(201);
    }
    // A real Worker fails three jobs and completes two.
    queue = await seedQueue(fixture.bullmq, 'emails', { failed: 3, completed: 2 });
  });
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close()));
    await queue?.close();
    await app?.close();
    await fixture.cleanup();
  });

  it('lists one tool per procedure a token may call, generated from it: name, description, input and output schemas', async () => {
    const { tools } = await (await agent(tokens.agent.token)).listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(
      tokenProcedures.map((route) => route.procedure.replaceAll('.', '_')).sort(),
    );
    expect(tools.map((tool) => tool.name)).not.toContain('auth_createToken');
    const purge = tools.find((tool) => tool.name === 'queues_purge')!;
    expect(purge.description).toContain('Same as REST POST /api/c/{connectionId}/queues/{queueName}/purge');
    expect(purge.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect(purge.inputSchema.properties).toHaveProperty('confirmName');
    expect(purge.inputSchema.properties).toHaveProperty('reason');
    const get = tools.find((tool) => tool.name === 'queues_get')!;
    expect(get.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    expect(get.inputSchema).toMatchObject({
      type: 'object',
      required: expect.arrayContaining(['connectionId', 'queueName']),
    });
    expect(get.inputSchema.properties).not.toHaveProperty('reason');
    expect(get.outputSchema).toMatchObject({ type: 'object', properties: { jobCounts: expect.anything() } });
  });

  it('reads a queue and its failures as structured content the output schema validates', async () => {
    const client = await agent(tokens.agent.token);
    const detail = await client.callTool({
      name: 'queues_get',
      arguments: { connectionId: 'live', queueName: 'emails' },
    });
    expect(detail.isError).toBeFalsy();
    expect(detail.structuredContent).toMatchObject({ name: 'emails', jobCounts: { failed: 3, completed: 2 } });
    expect(toolJson(detail)).toEqual(detail.structuredContent);
    const failures = await client.callTool({
      name: 'jobs_failures',
      arguments: { connectionId: 'live', queueName: 'emails' },
    });
    expect(failures.isError).toBeFalsy();
    expect(
      (failures.structuredContent as { groups: Array<{ count: number }> }).groups.reduce(
        (sum, group) => sum + group.count,
        0,
      ),
    ).toBe(3);
  });

  it('retries a failed job, audited with actor kind agent, the token and the reason', async () => {
    const [first] = await failedIds();
    const client = await agent(tokens.agent.token);
    const retried = await client.callTool({
      name: 'jobs_retry',
      arguments: { connectionId: 'live', queueName: 'emails', jobIds: [first], reason: 'SMTP relay is back (INC-7)' },
    });
    expect(retried.isError).toBeFalsy();
    expect(retried.structuredContent).toMatchObject({ succeeded: 1, failed: 0 });
    expect(await queue.getJobState(first!)).toBe('waiting');
    const [event] = await auditOf('jobs.retry');
    expect(event).toMatchObject({
      actor: { kind: 'agent', tokenId: tokens.agent.id },
      procedure: 'jobs.retry',
      queueName: 'emails',
      outcome: 'success',
      reason: 'SMTP relay is back (INC-7)',
      parameters: { jobIds: [first] },
    });
  });

  it('is refused on a read-only connection with the REST error, audited as denied, and the job stays failed', async () => {
    const before = await failedIds();
    const args = { connectionId: 'locked', queueName: 'emails', jobIds: before };
    const refused = await (await agent(tokens.agent.token)).callTool({ name: 'jobs_retry', arguments: args });
    expect(refused.isError).toBe(true);
    const rest = await request(`${app.api}/c/locked/queues/emails/jobs/retry`, {
      method: 'POST',
      headers: bearer(tokens.agent.token),
      body: { jobIds: before },
    });
    expect(rest.status).toBe(403);
    expect(toolJson(refused)).toEqual(rest.body);
    expect(toolJson(refused)).toMatchObject({ code: 'CONNECTION_PROTECTED', protection: 'read-only' });
    expect(await failedIds()).toEqual(before);
    const events = await auditOf('jobs.retry');
    expect(
      events
        .map((event: { actor: { kind: string }; outcome: string }) => [event.actor.kind, event.outcome])
        .slice(0, 2),
    ).toEqual([
      ['token', 'denied'],
      ['agent', 'denied'],
    ]);
  });

  it('a viewer token sees no tool its role refuses, and is refused (403) when it calls one anyway', async () => {
    const client = await agent(tokens.viewer.token);
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toContain('queues_get');
    expect(names).not.toContain('jobs_retry');
    const before = await failedIds();
    const refused = await client.callTool({
      name: 'jobs_retry',
      arguments: { connectionId: 'live', queueName: 'emails', jobIds: before },
    });
    expect(refused.isError).toBe(true);
    expect(toolJson(refused)).toMatchObject({ code: 'FORBIDDEN', permission: 'jobs.retry' });
    expect(await failedIds()).toEqual(before);
    expect((await auditOf('jobs.retry'))[0]).toMatchObject({
      actor: { kind: 'agent', tokenId: tokens.viewer.id },
      outcome: 'denied',
      errorCode: 'FORBIDDEN',
    });
  });

  it('a read-scoped token sees only reading tools and is refused a change over MCP, REST and tRPC alike', async () => {
    const client = await agent(tokens.reader.token);
    const { tools } = await client.listTools();
    expect(tools.length).toBe(tokenProcedures.filter((route) => !route.mutation).length);
    expect(tools.every((tool) => tool.annotations?.readOnlyHint === true)).toBe(true);
    const before = await failedIds();
    const viaMcp = await client.callTool({
      name: 'jobs_retry',
      arguments: { connectionId: 'live', queueName: 'emails', jobIds: before },
    });
    expect(toolJson(viaMcp)).toMatchObject({ code: 'FORBIDDEN', tokenScope: 'read' });
    const viaRest = await request(`${app.api}/c/live/queues/emails/jobs/retry`, {
      method: 'POST',
      headers: bearer(tokens.reader.token),
      body: { jobIds: before },
    });
    expect([viaRest.status, viaRest.body.code, viaRest.body.tokenScope]).toEqual([403, 'FORBIDDEN', 'read']);
    const viaTrpc = await request(`${app.api}/trpc/queues.pause`, {
      method: 'POST',
      headers: bearer(tokens.reader.token),
      body: { connectionId: 'live', queueName: 'emails' },
    });
    expect([viaTrpc.status, viaTrpc.body.error.data.code]).toEqual([403, 'FORBIDDEN']);
    expect(await failedIds()).toEqual(before);
    expect(await queue.isPaused()).toBe(false);
    // Reads still answer.
    const read = await client.callTool({
      name: 'queues_get',
      arguments: { connectionId: 'live', queueName: 'emails' },
    });
    expect(read.isError).toBeFalsy();
  });

  it('asks a destructive tool for confirmName exactly as REST does', async () => {
    const client = await agent(tokens.agent.token);
    const unconfirmed = await client.callTool({
      name: 'queues_purge',
      arguments: { connectionId: 'live', queueName: 'emails', statuses: ['completed'] },
    });
    const rest = await request(`${app.api}/c/live/queues/emails/purge`, {
      method: 'POST',
      headers: bearer(tokens.agent.token),
      body: { statuses: ['completed'] },
    });
    expect(rest.status).toBe(400);
    expect(toolJson(unconfirmed)).toEqual(rest.body);
    expect(rest.body).toMatchObject({ code: 'VALIDATION_FAILED', issues: [{ path: ['confirmName'] }] });
    const mistyped = await client.callTool({
      name: 'queues_purge',
      arguments: { connectionId: 'live', queueName: 'emails', statuses: ['completed'], confirmName: 'email' },
    });
    expect(toolJson(mistyped)).toMatchObject({ code: 'CONFIRMATION_MISMATCH', queueName: 'emails' });
    expect(await queue.getCompletedCount()).toBe(2);
    const purged = await client.callTool({
      name: 'queues_purge',
      arguments: { connectionId: 'live', queueName: 'emails', statuses: ['completed'], confirmName: 'emails' },
    });
    expect(purged.structuredContent).toMatchObject({ success: true, totalRemoved: 2 });
    expect(await queue.getCompletedCount()).toBe(0);
  });

  it('answers bad arguments and unknown tools as errors, never a crash', async () => {
    const client = await agent(tokens.agent.token);
    const unknownField = await client.callTool({
      name: 'queues_get',
      arguments: { connectionId: 'live', queueName: 'emails', colour: 'red' },
    });
    expect(toolJson(unknownField)).toMatchObject({ code: 'UNKNOWN_FIELD', fields: ['colour'] });
    const noInput = await client.callTool({ name: 'connections_list', arguments: { page: 2 } });
    expect(toolJson(noInput)).toMatchObject({ code: 'UNKNOWN_FIELD', fields: ['page'] });
    await expect(client.callTool({ name: 'queues_explode', arguments: {} })).rejects.toThrow(
      /Unknown tool "queues_explode"/,
    );
  });

  it('takes API tokens only: no token, a wrong one or a session cookie is 401; GET is 405', async () => {
    // The SDK's StreamableHTTPError carries the HTTP status as `code`, and our error body in its message.
    const refusal = { code: 401, message: expect.stringContaining('"code":"UNAUTHORIZED"') };
    await expect(connectAgent(app, {})).rejects.toMatchObject(refusal);
    await expect(connectAgent(app, bearer('bp_not-a-token'))).rejects.toMatchObject(refusal);
    await expect(connectAgent(app, { cookie: owner.cookie! })).rejects.toMatchObject(refusal);
    const unauthorized = await request(`${app.api}/mcp`, {
      method: 'POST',
      body: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    });
    expect([unauthorized.status, unauthorized.body.code, unauthorized.headers.get('www-authenticate')]).toEqual([
      401,
      'UNAUTHORIZED',
      'Bearer realm="bullpen"',
    ]);
    const get = await request(`${app.api}/mcp`, { headers: bearer(tokens.agent.token) });
    expect([get.status, get.body.code, get.headers.get('allow')]).toEqual([405, 'METHOD_NOT_ALLOWED', 'POST']);
    const crossSite = await request(`${app.api}/mcp`, {
      method: 'POST',
      headers: { ...bearer(tokens.agent.token), origin: 'https://evil.example' },
      body: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    });
    expect([crossSite.status, crossSite.body.code]).toEqual([403, 'FORBIDDEN']);
  });
});
