import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { request } from '../../helpers/app.js';
import { ApiToken } from '../../../server/persistence/entities/api-token.js';
import { AlertEvent } from '../../../server/persistence/entities/alerts.js';
import { Membership } from '../../../server/persistence/entities/membership.js';
import { Task } from '../../../server/persistence/entities/task.js';
import { User } from '../../../server/persistence/entities/user.js';
import type { CaseTargets, Need } from './matrix-routes.js';
import type { MatrixWorld, SavedConnection } from './matrix-world.js';

let counter = 0;
const nextName = () => `${process.pid}x${++counter}`;

/** Calls the API as the instance owner, acting in A; a failure is the fixture's, so it throws. */
async function asInstanceOwner(world: MatrixWorld, method: string, path: string, body?: unknown): Promise<any> {
  const response = await request(`${world.app.api}${path}`, {
    method,
    headers: world.browser(world.instanceOwner, world.organizationA),
    body,
  });
  if (response.status >= 300)
    throw new Error(`fixture ${method} ${path}: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body;
}

/** A member of A (role viewer) made directly in the database: no password hashing per case. */
async function member(world: MatrixWorld): Promise<string> {
  const em = world.app.services.persistence.fork();
  const id = randomUUID();
  em.create(User, {
    id,
    email: `member-${nextName()}@example.test`,
    name: 'member',
    passwordHash: 'x',
    createdAt: new Date(),
    lastSignInAt: null,
  });
  em.create(Membership, {
    id: randomUUID(),
    organizationId: world.organizationA,
    userId: id,
    role: 'viewer',
    createdAt: new Date(),
  });
  await em.flush();
  return id;
}

async function memberToken(world: MatrixWorld, userId: string): Promise<string> {
  const em = world.app.services.persistence.fork();
  const id = randomUUID();
  const tokenHash = createHash('sha256').update(randomBytes(16)).digest('hex');
  em.create(ApiToken, {
    id,
    organizationId: world.organizationA,
    createdByUserId: userId,
    name: 'member token',
    role: 'viewer',
    tokenHash,
    expiresAt: null,
    lastUsedAt: null,
    createdAt: new Date(),
  });
  await em.flush();
  return id;
}

/** A task another replica holds (its lease runs for an hour): this process never runs it; cancelling it is allowed. */
async function heldTask(world: MatrixWorld, connection: SavedConnection): Promise<string> {
  const em = world.app.services.persistence.fork();
  const id = randomUUID();
  em.create(Task, {
    id,
    organizationId: world.organizationA,
    connectionId: connection.id,
    kind: 'queues.purge',
    queueName: 'elsewhere',
    params: { statuses: ['completed'] },
    state: 'running',
    processed: 0,
    total: null,
    maxPerSecond: null,
    cursor: null,
    result: null,
    error: null,
    leaseHolder: 'another-replica',
    leaseExpiresAt: Date.now() + 3_600_000,
    createdBy: { kind: 'user' },
    createdAt: new Date(),
    startedAt: new Date(),
    finishedAt: null,
  });
  await em.flush();
  return id;
}

async function firingEvent(world: MatrixWorld, ruleId: string, connection: SavedConnection): Promise<string> {
  const em = world.app.services.persistence.fork();
  const id = randomUUID();
  em.create(AlertEvent, {
    id,
    ruleId,
    connectionId: connection.id,
    queueName: null,
    state: 'firing',
    value: 12,
    threshold: 10,
    firedAt: new Date(),
    resolvedAt: null,
    acknowledgedAt: null,
  });
  await em.flush();
  return id;
}

/** The targets a case needs, each made fresh; the queue is a copy of the template under the connection's prefix. */
export async function prepareTargets(
  world: MatrixWorld,
  connection: SavedConnection,
  needs: readonly Need[],
): Promise<CaseTargets> {
  const fresh = nextName();
  const t: CaseTargets = {
    connection,
    organizationId: world.organizationA,
    queueName: `q${fresh}`,
    fresh,
    memberUserId: '',
    tokenId: '',
    invitationId: '',
    ruleId: '',
    eventId: '',
    destinationId: '',
    taskId: '',
    key: '',
    spareConnectionId: '',
  };
  const needed = new Set(needs);
  if (needed.has('queue')) await world.template.copyTo(connection.prefix, t.queueName);
  if (needed.has('member')) t.memberUserId = await member(world);
  if (needed.has('memberToken')) t.tokenId = await memberToken(world, t.memberUserId);
  if (needed.has('invitation'))
    t.invitationId = (
      await asInstanceOwner(world, 'POST', `/organizations/${world.organizationA}/invitations`, {
        email: `i${fresh}@example.test`,
        role: 'viewer',
      })
    ).id;
  if (needed.has('rule'))
    t.ruleId = (
      await asInstanceOwner(world, 'POST', `/c/${connection.id}/alerts/rules`, {
        name: `r ${fresh}`,
        type: 'failed_count',
        threshold: 10,
        windowMinutes: 15,
      })
    ).id;
  if (needed.has('event')) t.eventId = await firingEvent(world, t.ruleId, connection);
  if (needed.has('destination'))
    t.destinationId = (
      await asInstanceOwner(world, 'POST', '/alerts/destinations', {
        type: 'webhook',
        name: `d ${fresh}`,
        url: 'http://127.0.0.1:9/alerts',
      })
    ).id;
  if (needed.has('task')) t.taskId = await heldTask(world, connection);
  if (needed.has('key')) {
    t.key = `${connection.prefix}_plain_${fresh}`;
    await world.redis.set(t.key, 'value');
  }
  if (needed.has('spareConnection')) {
    t.spareConnectionId = (
      await asInstanceOwner(world, 'POST', '/connections', {
        name: `spare-${fresh}`,
        url: 'redis://127.0.0.1:6379/0',
        prefix: `sp${fresh}`,
      })
    ).id;
  }
  return t;
}

/** Tables that change on any request, allowed or not (the refusal's own audit row, samples, the queue index, leases). */
const volatileTables =
  /^(audit_event|queue_sample|connection_sample|lease|queue_index|queue_discovery|mikro_orm_migrations|sqlite_sequence)/;
/** Columns a read touches: session expiry (refreshed), a token's last use. */
const volatileColumns = new Set(['expires_at', 'last_used_at', 'last_sign_in_at']);

/** Every row of Bullpen's own tables but the volatile ones, in a stable order: equal before and after a refusal. */
export function databaseSnapshot(world: MatrixWorld): string {
  const tables = (
    world.db.prepare(`select name from sqlite_master where type = 'table' order by name`).all() as Array<{
      name: string;
    }>
  )
    .map((row) => row.name)
    .filter((name) => !volatileTables.test(name));
  const dump: Record<string, string[]> = {};
  for (const table of tables) {
    const rows = world.db.prepare(`select * from "${table}"`).all() as Array<Record<string, unknown>>;
    dump[table] = rows
      .map((row) =>
        JSON.stringify(Object.fromEntries(Object.entries(row).filter(([column]) => !volatileColumns.has(column)))),
      )
      .sort();
  }
  return JSON.stringify(dump);
}

/** A key's content, canonically: a hashtable's DUMP follows its dict order, which a mere read may rehash. */
async function keyContent(world: MatrixWorld, key: string, type: string): Promise<unknown> {
  const { redis } = world;
  switch (type) {
    case 'string':
      return redis.getBuffer(key).then((value) => value?.toString('base64'));
    case 'hash':
      return redis.hgetall(key).then((fields) => Object.entries(fields).sort());
    case 'list':
      return redis.lrange(key, 0, -1);
    case 'set':
      return redis.smembers(key).then((members) => members.sort());
    case 'zset':
      return redis.zrange(key, '0', '-1', 'WITHSCORES');
    case 'stream':
      return redis.xrange(key, '-', '+');
    default:
      return redis.dumpBuffer(key).then((value) => value?.toString('base64'));
  }
}

/** Every key under the connection's prefix with its exact content and whether it expires. */
export async function storeSnapshot(world: MatrixWorld, connection: SavedConnection): Promise<string> {
  const keys: string[] = [];
  let cursor = '0';
  do {
    const [next, batch] = await world.redis.scan(cursor, 'MATCH', `${connection.prefix}*`, 'COUNT', 1000);
    keys.push(...batch);
    cursor = next;
  } while (cursor !== '0');
  keys.sort();
  const snapshot = [];
  for (const key of keys) {
    const type = await world.redis.type(key);
    snapshot.push([key, type, await keyContent(world, key, type), (await world.redis.pttl(key)) >= 0]);
  }
  return JSON.stringify(snapshot);
}
