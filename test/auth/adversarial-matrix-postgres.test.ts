import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectionProtections } from '../../contracts/protection.js';
import { factsOf, mutations, runCase, type CaseRow } from './support/matrix-case.js';
import type { ProcedureFacts } from './support/matrix-oracle.js';
import { matrixRoutes } from './support/matrix-routes.js';
import { PostgresMatrixStore } from './support/matrix-postgres.js';
import { MatrixWorld } from './support/matrix-world.js';

/**
 * The adversarial matrix's protection and confirmation rules on a PostgreSQL connection: every
 * connection-scoped mutation of the same route list (matrix-routes.ts; the Redis matrix holds that
 * it names every permissioned mutation), on saved `postgres://` connections of each protection,
 * judged by the same oracle, with the same proof that a refusal or a dry run changes nothing
 * (every row of the BullMQ schema, every row of Bullpen's database, no audited success).
 *
 * A sample per rule, not the product, to keep the file short (~10 cases a route): each protection
 * with the documented input, `admin` protection as an admin too, a dry run on a read-only
 * connection, the confirmation spelt in another case and left out (on `confirm` and on none), a
 * field the route does not take, a caller from another organization and one in both acting in the
 * other. Transports and the other roles decide before any store is read; the Redis matrix crosses
 * every pair of them.
 */
const onConnection = mutations.filter(([name, procedure]) => factsOf(name, procedure).onConnection);

type Sample = Pick<CaseRow, 'role' | 'protection' | 'variant'> & Partial<CaseRow>;

/** The cases of one route: each rule the store kind could break, once (see above). */
function samplesOf(facts: ProcedureFacts): CaseRow[] {
  const samples: Sample[] = [
    ...connectionProtections.map((protection) => ({
      role: 'operator' as const,
      protection,
      variant: 'documented' as const,
    })),
    { role: 'admin', protection: 'admin', variant: 'documented' },
    ...(facts.takesDryRun ? [{ role: 'operator', protection: 'read-only', variant: 'dryRun' } as const] : []),
    ...(facts.takesConfirmName
      ? ([
          { role: 'admin', protection: 'confirm', variant: 'confirmNameCase' },
          { role: 'operator', protection: 'confirm', variant: 'confirmNameMissing' },
          { role: 'admin', protection: 'none', variant: 'confirmNameMissing' },
        ] as const)
      : []),
    { role: 'operator', protection: 'confirm', variant: 'unknownField' },
    { role: 'owner', relation: 'another', protection: 'none', variant: 'documented' },
    { role: 'admin', relation: 'both-in-B', protection: 'none', variant: 'documented', transport: 'trpc' },
  ];
  return samples.map((sample) => ({ relation: 'same', transport: 'rest', ...sample }));
}

describe('the adversarial matrix on a PostgreSQL connection: protection and confirmation', () => {
  let world: MatrixWorld;
  let store: PostgresMatrixStore;
  let cases = 0;
  beforeAll(async () => {
    world = await MatrixWorld.boot();
    store = await PostgresMatrixStore.create(world);
  }, 120_000);
  afterAll(async () => {
    console.log(`adversarial matrix on PostgreSQL: ${cases} cases`);
    await store?.close();
    await world?.close();
  });

  it('attacks the connection-scoped mutations of the route list', () => {
    expect(onConnection.length).toBeGreaterThan(20);
    for (const [name] of onConnection) expect(matrixRoutes[name], name).toBeDefined();
  });

  it.each(onConnection.map(([name, procedure]) => [name, procedure] as const))(
    '%s',
    async (name, procedure) => {
      const rows = samplesOf(factsOf(name, procedure));
      const mismatches: string[] = [];
      for (const row of rows) {
        cases++;
        mismatches.push(...(await runCase(world, store, [name, procedure], row)));
      }
      expect(mismatches).toEqual([]);
    },
    120_000,
  );
});
