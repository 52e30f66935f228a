import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectionProtections } from '../../contracts/protection.js';
import { deleteKeysMatching } from '../helpers/stores.js';
import { factsOf, mutations, runCase, type CaseStore } from './support/matrix-case.js';
import { prepareTargets, storeSnapshot } from './support/matrix-fixtures.js';
import { inputVariants } from './support/matrix-oracle.js';
import { matrixRoutes } from './support/matrix-routes.js';
import { hashText, pairwiseSample } from './support/matrix-sample.js';
import { transports } from './support/matrix-transport.js';
import { matrixRoles, MatrixWorld } from './support/matrix-world.js';

/**
 * The adversarial matrix (issue 30): every mutating procedure of the router
 * that declares a permission, crossed over role × relation to the target's
 * organization × connection protection × input variant × transport. Each
 * case asserts the documented answer; a refusal must leave the store keys
 * and the database rows byte-identical and add no successful audit event.
 * The product is sampled deterministically (every pair of dimension values
 * at least once per procedure); MATRIX_SEED picks another sample and
 * MATRIX_EXTRA adds more cases per procedure. The same routes on a
 * PostgreSQL connection: adversarial-matrix-postgres.test.ts.
 */
const seed = Number(process.env.MATRIX_SEED ?? 30);
const extra = Number(process.env.MATRIX_EXTRA ?? 0);
const relations = ['same', 'another', 'both-in-A', 'both-in-B'] as const;

/** Redis: the world's saved connections, the template queue copied key by key, every key under the prefix. */
const redisStore = (world: MatrixWorld): CaseStore => ({
  connection: (protection) => world.connections[protection],
  prepare: (connection, needs) => prepareTargets(world, connection, needs),
  snapshot: (connection) => storeSnapshot(world, connection),
  cleanup: (connection) => deleteKeysMatching(world.redis, `${connection.prefix}*`).then(() => undefined),
});

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
        mismatches.push(...(await runCase(world, redisStore(world), [name, procedure], row)));
      }
      expect(mismatches).toEqual([]);
    },
    180_000,
  );
});
