import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { Organization } from '../../../server/persistence/entities/organization.js';
import { ensureLocalOrganization } from '../../../server/persistence/local-organization.js';
import { openOrm, type Orm } from '../../../server/persistence/orm.js';

/** The ORM on PostgreSQL as the service opens it (server/persistence/orm.ts), with its pg pool to look into. */
export async function openServiceOrm(
  databaseUrl: string,
  limits: { timeoutMs: number; poolSize: number },
): Promise<{ orm: Orm; pool: pg.Pool }> {
  const { orm } = await openOrm(
    { mode: 'server', databaseUrl },
    { ...limits, maxWaiting: 8 },
    {
      log: () => {},
      onWait: () => {},
      prepare: ensureLocalOrganization,
    },
  );
  const pool = await (orm.em.getConnection() as unknown as { getNativeClient(): Promise<pg.Pool> }).getNativeClient();
  return { orm, pool };
}

/** One write as a request makes it: an organization flushed in a transaction of its own. */
export async function writeOrganization(orm: Orm, name: string): Promise<void> {
  const em = orm.em.fork();
  em.create(Organization, { id: randomUUID(), name, slug: randomUUID(), isLocal: false, createdAt: new Date() });
  await em.flush();
}
