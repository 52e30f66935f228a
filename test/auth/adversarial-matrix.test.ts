import type { AnyProcedure } from '@trpc/server';
import { getInputOutputParsers } from 'trpc-to-openapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectionProtections } from '../../contracts/protection.js';
import { appRouter } from '../../routers/_app.js';
import { partsOf, proceduresOf } from '../../server/trpc/trpc-internals.js';
import { deleteKeysMatching } from '../helpers/stores.js';
import { databaseSnapshot, prepareTargets, storeSnapshot } from './support/matrix-fixtures.js';
import {
  expectedAnswer,
  inputVariants,
  type Expectation,
  type InputVariant,
  type ProcedureFacts,
} from './support/matrix-oracle.js';
import { matrixRoutes, type CaseTargets } from './support/matrix-routes.js';
import { hashText, pairwiseSample } from './support/matrix-sample.js';
import { callRoute, transports } from './support/matrix-transport.js';
import { matrixRoles, MatrixWorld } from './support/matrix-world.js';

/**
 * The adversarial matrix (issue 30): every mutating procedure of the router
 * that declares a permission, crossed over role × relation to the target's
 * organization × connection protection × input variant × transport. Each
 * case asserts the documented answer; a refusal must leave the store keys
 * and the database rows byte-identical and add no successful audit event.
 * The product is sampled deterministically (every pair of dimension values
 * at least once per procedure); MATRIX_SEED picks another sample and
 * MATRIX_EXTRA adds more cases per procedure.
 */
const seed = Number(process.env.MATRIX_SEED ?? 30);
const extra = Number(process.env.MATRIX_EXTRA ?? 0);
const relations = ['same', 'another', 'both-in-A', 'both-in-B'] as const;

const mutations = Object.entries(proceduresOf(appRouter)).filter(
  ([, procedure]) => partsOf(procedure).type === 'mutation' && partsOf(procedure).meta?.permission,
);

function factsOf(name: string, procedure: AnyProcedure): ProcedureFacts {
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
function inputFor(
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

describe('the adversarial matrix: every mutation × role × relation × protection × input × transport', () => {
  let world: MatrixWorld;
  const sampled: Record<string, Record<string, number>> = {};
  let cases = 0;
  beforeAll(async () => {
    world = await MatrixWorld.boot();
  }, 120_000);
  afterAll(async () => {
    console.log(
      `adversarial matrix: ${cases} cases (seed ${seed}, extra ${extra}), every pair of dimension values per procedure; per value: ${JSON.stringify(sampled)}`,
    );
    await world?.close();
  });

  it('covers every mutating procedure that declares a permission, and only those', () => {
    expect(mutations.map(([name]) => name).sort()).toEqual(Object.keys(matrixRoutes).sort());
  });

  it.each(mutations.map(([name, procedure]) => [name, procedure] as const))(
    '%s',
    async (name, procedure) => {
      const facts = factsOf(name, procedure);
      const route = matrixRoutes[name]!;
      const meta = partsOf(procedure).meta!;
      const dimensions = {
        role: matrixRoles,
        relation: route.actingOrganization ? (['same'] as const) : relations,
        protection: facts.onConnection ? connectionProtections : (['none'] as const),
        variant: inputVariants,
        transport: transports,
      };
      const rows = pairwiseSample(dimensions, seed ^ hashText(name), extra);
      const mismatches: string[] = [];
      for (const row of rows) {
        cases++;
        for (const [dimension, value] of Object.entries(row)) {
          sampled[dimension] ??= {};
          const seen = sampled[dimension];
          seen[String(value)] = (seen[String(value)] ?? 0) + 1;
        }
        const connection = world.connections[row.protection];
        const t = await prepareTargets(world, connection, route.needs ?? []);
        const relation = row.relation.startsWith('both') ? 'both' : (row.relation as 'same' | 'another');
        // A route under /organizations/{organizationId} acts in the organization of its path (A), whatever the session says.
        const caller = world.caller(
          row.role,
          relation,
          row.relation !== 'both-in-B' || meta.openapi!.path.includes('{organizationId}'),
        );
        const expected: Expectation = expectedAnswer({
          facts,
          route,
          caller,
          protection: row.protection,
          variant: row.variant,
          transport: row.transport,
        });
        const watch = expected.refused || expected.dry;
        const before = watch ? [await storeSnapshot(world, connection), databaseSnapshot(world)] : [];
        const successes = auditSuccesses(world, name);
        const input = inputFor(facts, route.input(t), row.variant, t);
        const answer = await callRoute(row.transport, {
          api: world.app.api,
          procedure: name,
          method: meta.openapi!.method,
          path: meta.openapi!.path,
          input,
          headers: caller.headers,
        });
        const label = `${JSON.stringify(row)} expected ${expected.why} ${JSON.stringify(expected.statuses)}, got ${answer.status} ${answer.code ?? ''}`;
        const statusOk =
          expected.statuses.includes(answer.status) &&
          (!expected.refused || expected.codes.includes(answer.code ?? ''));
        if (!statusOk) mismatches.push(`${label}: ${JSON.stringify(answer.body).slice(0, 300)}`);
        else if (watch) {
          const after = [await storeSnapshot(world, connection), databaseSnapshot(world)];
          if (after[0] !== before[0]) mismatches.push(`${label}: the store changed`);
          if (after[1] !== before[1]) mismatches.push(`${label}: the database changed`);
        }
        if (expected.refused && auditSuccesses(world, name) !== successes)
          mismatches.push(`${label}: audited as a success`);
        await deleteKeysMatching(world.redis, `${connection.prefix}*`);
      }
      expect(mismatches).toEqual([]);
    },
    180_000,
  );
});

function auditSuccesses(world: MatrixWorld, procedure: string): number {
  return (
    world.db
      .prepare(`select count(*) as n from audit_event where procedure = ? and outcome = 'success'`)
      .get(procedure) as { n: number }
  ).n;
}
