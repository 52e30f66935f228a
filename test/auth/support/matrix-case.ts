import type { AnyProcedure } from '@trpc/server';
import { getInputOutputParsers } from 'trpc-to-openapi';
import type { ConnectionProtection } from '../../../contracts/protection.js';
import { appRouter } from '../../../routers/_app.js';
import { partsOf, proceduresOf } from '../../../server/trpc/trpc-internals.js';
import { databaseSnapshot } from './matrix-fixtures.js';
import { expectedAnswer, type Expectation, type InputVariant, type ProcedureFacts } from './matrix-oracle.js';
import { matrixRoutes, type CaseTargets, type Need } from './matrix-routes.js';
import { callRoute, type Transport } from './matrix-transport.js';
import type { MatrixRole, MatrixWorld, SavedConnection } from './matrix-world.js';

/** Every mutating procedure of the router that declares a permission: what the matrices attack. */
export const mutations = Object.entries(proceduresOf(appRouter)).filter(
  ([, procedure]) => partsOf(procedure).type === 'mutation' && partsOf(procedure).meta?.permission,
);

export function factsOf(name: string, procedure: AnyProcedure): ProcedureFacts {
  const meta = partsOf(procedure).meta!;
  const shape =
    (getInputOutputParsers(procedure as never).inputParser as { shape?: Record<string, { _zod: { optin?: string } }> })
      .shape ?? {};
  const path = meta.openapi!.path;
  return {
    name,
    permission: meta.permission!,
    sessionOnly: meta.sessionOnly === true,
    onConnection: path.startsWith('/c/{connectionId}'),
    inOrganizationPath: path.includes('{organizationId}'),
    onQueue: path.includes('{queueName}'),
    alwaysConfirms: meta.confirm === 'queue',
    takesDryRun: 'dryRun' in shape,
    takesConfirmName: 'confirmName' in shape,
    confirmNameRequired: 'confirmName' in shape && shape.confirmName!._zod.optin !== 'optional',
  };
}

/** The case's input: the documented one, changed as its variant says. */
export function inputFor(
  facts: ProcedureFacts,
  documented: Record<string, unknown>,
  variant: InputVariant,
  t: CaseTargets,
): Record<string, unknown> {
  const expectedName = facts.onQueue ? t.queueName : t.connection.name;
  const swapped = expectedName.replace(/[a-z]/gi, (letter) =>
    letter === letter.toLowerCase() ? letter.toUpperCase() : letter.toLowerCase(),
  );
  switch (variant) {
    case 'documented':
      return documented;
    case 'dryRun':
      return { ...documented, dryRun: true };
    case 'unknownField':
      return { ...documented, extraField: 'dropped?' };
    case 'confirmNameCase':
      return facts.takesConfirmName
        ? { ...documented, confirmName: swapped }
        : { ...documented, confirmname: expectedName };
    case 'confirmNameMissing': {
      const { confirmName: _confirmName, ...rest } = documented;
      return rest;
    }
  }
}

export interface CaseRow {
  role: MatrixRole;
  relation: 'same' | 'another' | 'both-in-A' | 'both-in-B';
  protection: ConnectionProtection;
  variant: InputVariant;
  transport: Transport;
}

/** The store a case runs on: its connection, fresh targets on it, a snapshot of its content, and a clean-up. */
export interface CaseStore {
  connection(protection: ConnectionProtection): SavedConnection;
  prepare(connection: SavedConnection, needs: readonly Need[]): Promise<CaseTargets>;
  snapshot(connection: SavedConnection): Promise<string>;
  cleanup(connection: SavedConnection): Promise<void>;
  /** What a call the rules allow answers instead on this store kind (a route it cannot serve), if anything. */
  refusesAllowed?(procedure: string): { status: number; code: string } | undefined;
}

/**
 * Runs one case of a procedure and says what went wrong (nothing: []): the answer must be the
 * documented one; a refusal or a dry run must leave the store and Bullpen's rows as they were; a
 * refusal adds no successful audit event.
 */
export async function runCase(
  world: MatrixWorld,
  store: CaseStore,
  [name, procedure]: (typeof mutations)[number],
  row: CaseRow,
): Promise<string[]> {
  const facts = factsOf(name, procedure);
  const route = matrixRoutes[name]!;
  const meta = partsOf(procedure).meta!;
  const connection = store.connection(row.protection);
  const t = await store.prepare(connection, route.needs ?? []);
  const relation = row.relation.startsWith('both') ? 'both' : (row.relation as 'same' | 'another');
  // A route under /organizations/{organizationId} acts in the organization of its path (A), whatever the session says.
  const caller = world.caller(
    row.role,
    relation,
    row.relation !== 'both-in-B' || meta.openapi!.path.includes('{organizationId}'),
  );
  const expected = unservedBy(store, name, expectedAnswer({ facts, route, caller, ...row }));
  const watch = expected.refused || expected.dry;
  const before = watch ? [await store.snapshot(connection), databaseSnapshot(world)] : [];
  const successes = auditSuccesses(world, name);
  const answer = await callRoute(row.transport, {
    api: world.app.api,
    procedure: name,
    method: meta.openapi!.method,
    path: meta.openapi!.path,
    input: inputFor(facts, route.input(t), row.variant, t),
    headers: caller.headers,
  });
  const label = `${JSON.stringify(row)} expected ${expected.why} ${JSON.stringify(expected.statuses)}, got ${answer.status} ${answer.code ?? ''}`;
  const mismatches: string[] = [];
  const statusOk =
    expected.statuses.includes(answer.status) && (!expected.refused || expected.codes.includes(answer.code ?? ''));
  if (!statusOk) mismatches.push(`${label}: ${JSON.stringify(answer.body).slice(0, 300)}`);
  else if (watch) {
    const after = [await store.snapshot(connection), databaseSnapshot(world)];
    if (after[0] !== before[0]) mismatches.push(`${label}: the store changed`);
    if (after[1] !== before[1]) mismatches.push(`${label}: the database changed`);
  }
  if (expected.refused && auditSuccesses(world, name) !== successes) mismatches.push(`${label}: audited as a success`);
  await store.cleanup(connection);
  return mismatches;
}

/** A call the rules allow that this store cannot serve: refused as the store says, and nothing may change. */
function unservedBy(store: CaseStore, procedure: string, expected: Expectation): Expectation {
  const instead = expected.refused ? undefined : store.refusesAllowed?.(procedure);
  if (!instead) return expected;
  return { refused: true, statuses: [instead.status], codes: [instead.code], why: `${expected.why}, unserved here` };
}

function auditSuccesses(world: MatrixWorld, procedure: string): number {
  return (
    world.db
      .prepare(`select count(*) as n from audit_event where procedure = ? and outcome = 'success'`)
      .get(procedure) as { n: number }
  ).n;
}
