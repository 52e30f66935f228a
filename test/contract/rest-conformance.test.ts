import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { appRouter } from '../../routers/_app.js';
import { getInputOutputParsers, instanceofZodTypeLikeVoid, unwrapZodType } from 'trpc-to-openapi';
import { partsOf, proceduresOf } from '../../server/trpc/trpc-internals.js';
import { bearer } from '../helpers/auth.js';
import { sendCall, type DocumentedCall } from './document-validator.js';
import { accountChecks } from './openapi-responses/accounts.js';
import { alertAndEventChecks } from './openapi-responses/alerts-and-events.js';
import { connectionAndJobChecks } from './openapi-responses/connections-and-jobs.js';
import { queueAdministrationChecks } from './openapi-responses/queue-administration.js';
import { sharedErrorChecks } from './openapi-responses/shared-errors.js';
import { app, bootTour, docs, owner, state } from './openapi-responses/tour.js';
import { comparable, type Answer, type MirroredValidator } from './support/mirrored-validator.js';

/**
 * Our REST façade (server/http/rest/: routes matched once in a tree, the
 * procedure's middlewares run without tRPC's caller) against trpc-to-openapi's
 * stock express adapter over tRPC's own caller (./support/stock-rest-api.ts),
 * both serving the same services. The tour of openapi-responses.test.ts runs
 * again: every read and every refusal it makes is answered by both, equal in
 * status, headers that matter and body; its successful mutations are served
 * by the stock adapter (ours serves them in openapi-responses.test.ts).
 * Then every REST route, from the router: without credentials, with a field
 * it does not take, as a viewer, and on an unknown connection.
 */
bootTour({ mirror: true });

const mirrored = () => docs as MirroredValidator;
const routes = Object.entries(proceduresOf(appRouter))
  .flatMap(([, built]) => {
    const openapi = partsOf(built).meta?.openapi;
    if (!openapi) return [];
    const takesNoInput = instanceofZodTypeLikeVoid(
      unwrapZodType(getInputOutputParsers(built as never).inputParser, true),
    );
    return [
      { method: openapi.method, path: openapi.path, operation: `${openapi.method} ${openapi.path}`, takesNoInput },
    ];
  })
  // Account routes spend the sign-in limit; the tour compares their reads and refusals.
  .filter(({ path }) => !/^\/(auth|invitations)\//.test(path));

/**
 * Where ours answers otherwise on purpose: a route that takes no input
 * refuses any field (400 UNKNOWN_FIELD: inputs are strict, never dropped),
 * where the stock adapter ignores the input of such a route.
 */
function deliberate(ours: Answer, stock: Answer): boolean {
  return ours.status === 400 && (ours.body as { code?: string }).code === 'UNKNOWN_FIELD' && stock.status === 200;
}

/** Sends the call to both apps; the calls whose answers differ (other than deliberately), and the deliberate differences seen. */
async function differences(
  calls: DocumentedCall[],
): Promise<Array<{ operation: string; ours: unknown; stock: unknown }>> {
  const found = [];
  for (const call of calls) {
    const { ours, stock } = comparable(await sendCall(app.api, call), await sendCall(mirrored().mirror.stockApi, call));
    if (deliberate(ours, stock)) deliberateSeen.add(call.operation);
    else if (!isDeepStrictEqual(ours, stock)) found.push({ operation: call.operation, ours, stock });
  }
  return found;
}
const deliberateSeen = new Set<string>();

type Route = (typeof routes)[number];

/** The route called with path `values` (a harmless `x` for others), as `headers`, with `fields` as query or body. */
function call(
  route: Route,
  values: Record<string, string>,
  headers: Record<string, string>,
  fields: Record<string, unknown> = {},
): DocumentedCall {
  const path = Object.fromEntries(
    [...route.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => [name!, values[name!] ?? 'x']),
  );
  const query = Object.fromEntries(Object.entries(fields).map(([key, value]) => [key, String(value)]));
  if (route.method === 'GET') return { operation: route.operation, path, headers, query };
  return { operation: route.operation, path, headers, body: fields };
}

describe('our REST façade answers as the stock trpc-to-openapi adapter', () => {
  accountChecks();
  connectionAndJobChecks();
  queueAdministrationChecks();
  alertAndEventChecks();

  const known = () => ({
    connectionId: state.main!,
    queueName: 'emails',
    organizationId: state.organizationId!,
    userId: state.userId!,
  });
  const writes = () => routes.filter((route) => route.method !== 'GET');
  const onConnections = () => routes.filter((route) => route.path.startsWith('/c/'));

  it('every route, from the router: 401 without credentials', async () => {
    expect(await differences(routes.map((route) => call(route, known(), {})))).toEqual([]);
  });

  it('every route: 400 for a field it does not take (strict input)', async () => {
    expect(await differences(routes.map((route) => call(route, known(), owner(), { bogusField: 1 })))).toEqual([]);
    // The deliberate difference is only where a route takes no input: the stock adapter drops the field there.
    const withoutInput = routes.filter((route) => route.takesNoInput).map((route) => route.operation);
    expect([...deliberateSeen].sort()).toEqual(withoutInput.sort());
  });

  it('every route: 403 for a viewer where the role is short', async () => {
    expect(await differences(writes().map((route) => call(route, known(), bearer(state.viewerToken!))))).toEqual([]);
  });

  it('every connection route: 404 for an unknown connection', async () => {
    const unknown = { ...known(), connectionId: randomUUID() };
    expect(await differences(onConnections().map((route) => call(route, unknown, owner())))).toEqual([]);
  });

  sharedErrorChecks();

  it('compared a success of every REST read, and served the successful mutations through the stock adapter', () => {
    const reads = routes.filter((route) => route.method === 'GET').map((route) => route.operation);
    const successes = [...mirrored().compared].filter((entry) => / 2\d\d$/.test(entry));
    const comparedSuccess = new Set(successes.map((entry) => entry.replace(/ \d+$/, '')));
    expect(reads.filter((operation) => !comparedSuccess.has(operation))).toEqual([]);
    expect(mirrored().servedByStock.size).toBeGreaterThan(30);
  });
});
