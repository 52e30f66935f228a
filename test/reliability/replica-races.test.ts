import { setTimeout } from 'node:timers/promises';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from '../helpers/app.js';
import { createTestDatabase, queryDatabase, type TestDatabase } from '../helpers/postgres.js';
import { browser, signUpOn, startReplica, type Replica, type ReplicaUser } from './support/replicas.js';

/**
 * Two service instances (separate processes) on one PostgreSQL database, as
 * replicas behind a load balancer run: racing requests go to both at once.
 */
describe('races across two replicas on one PostgreSQL', () => {
  let database: TestDatabase;
  let one: Replica;
  let two: Replica;
  let owner: ReplicaUser;
  let other: ReplicaUser;
  const organization = () => owner.organizationId;
  const member = (api: string, user: ReplicaUser, target: ReplicaUser, init: { method: string; body?: unknown }) =>
    request(`${api}/organizations/${organization()}/members/${target.userId}`, { ...init, headers: browser(user) });

  beforeAll(async () => {
    database = await createTestDatabase();
    // Together, as replicas start: the migration lock makes the second wait for the first's migrations.
    [one, two] = await Promise.all([startReplica(database.url), startReplica(database.url)]);
    owner = await signUpOn(one.api, 'owner');
    other = await signUpOn(two.api, 'other');
  }, 60_000);

  afterAll(async () => {
    await Promise.all([one?.stop(), two?.stop()]);
    await database?.drop();
  });

  const owners = async () =>
    queryDatabase<{ user_id: string }>(
      database.url,
      `select user_id from membership where organization_id = $1 and role = 'owner'`,
      [organization()],
    );

  /** `target` joins the organization as `role`: `actor` invites, `target` accepts. */
  async function join(actor: typeof owner, target: typeof owner, role: string): Promise<void> {
    const invited = await request(`${one.api}/organizations/${organization()}/members`, {
      method: 'POST',
      headers: browser(actor),
      body: { email: target.email, role },
    });
    expect(invited.status).toBe(201);
    expect(
      (
        await request(`${one.api}/invitations/${invited.body.token}/accept`, {
          method: 'POST',
          headers: browser(target),
        })
      ).status,
    ).toBe(200);
  }

  async function makeOtherOwner(): Promise<void> {
    const actor = (await owners()).some((row) => row.user_id === owner.userId) ? owner : other;
    const target = actor === owner ? other : owner;
    const existing = await member(one.api, actor, target, { method: 'PATCH', body: { role: 'owner' } });
    if (existing.status === 404) {
      await join(actor, target, 'owner');
    } else {
      expect(existing.status).toBe(200);
    }
    expect(await owners()).toHaveLength(2);
  }

  /**
   * Both requests are let through authentication, then held at the owner-row
   * lock by a table lock taken from outside (EXCLUSIVE: plain reads pass,
   * `FOR UPDATE` waits) and released together, so every round is a true race.
   */
  async function raceThroughLock<T>(requests: () => Promise<T>): Promise<T> {
    const locker = new pg.Client({ connectionString: database.url });
    await locker.connect();
    try {
      await locker.query('begin');
      await locker.query('lock table membership in exclusive mode');
      const answers = requests();
      await setTimeout(400);
      await locker.query('commit');
      return await answers;
    } finally {
      await locker.end();
    }
  }

  it('of two owners demoting or removing each other at once, one wins and the other is 409 LAST_OWNER', async () => {
    const rounds = 9;
    for (let round = 0; round < rounds; round++) {
      await makeOtherOwner();
      const action =
        round % 3 === 0 ? { method: 'DELETE' } : round % 3 === 1 ? { method: 'PATCH', body: { role: 'viewer' } } : null;
      const [first, second] = await raceThroughLock(() =>
        Promise.all([
          member(one.api, owner, other, action ?? { method: 'DELETE' }),
          member(two.api, other, owner, action ?? { method: 'PATCH', body: { role: 'viewer' } }),
        ]),
      );
      expect([first.status, second.status].sort()).toEqual([200, 409]);
      expect([first.body.code, second.body.code]).toContain('LAST_OWNER');
      expect(await owners()).toHaveLength(1);
    }
  }, 60_000);

  it('of racing deletes of one connection, one answers 200 and records the one success event', async () => {
    const actor = (await owners())[0]!.user_id === owner.userId ? owner : other;
    const created = await request(`${one.api}/connections`, {
      method: 'POST',
      headers: browser(actor),
      body: { name: 'doomed', url: 'redis://127.0.0.1:6379/0' },
    });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, index) =>
        request(`${(index % 2 ? one : two).api}/connections/${id}`, { method: 'DELETE', headers: browser(actor) }),
      ),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 404, 404, 404, 404, 404]);
    const events = await queryDatabase<{ outcome: string; connection_id: string | null }>(
      database.url,
      `select outcome, connection_id from audit_event where action = 'connections.write' and procedure = 'connections.delete'`,
    );
    expect(events.filter((event) => event.outcome === 'success')).toHaveLength(1);
    expect(events).toHaveLength(6);
    expect(events.every((event) => event.connection_id === id)).toBe(true);
  }, 30_000);

  it('of racing revocations of one token and removals of one member, only one succeeds', async () => {
    const actor = (await owners())[0]!.user_id === owner.userId ? owner : other;
    const token = await request(`${one.api}/auth/tokens`, {
      method: 'POST',
      headers: browser(actor),
      body: { name: 'raced' },
    });
    expect(token.status).toBe(201);
    const revocations = await Promise.all(
      Array.from({ length: 4 }, (_, index) =>
        request(`${(index % 2 ? one : two).api}/auth/tokens/${token.body.id}`, {
          method: 'DELETE',
          headers: browser(actor),
        }),
      ),
    );
    expect(revocations.map((answer) => answer.status).sort()).toEqual([200, 404, 404, 404]);

    const viewer = await signUpOn(one.api, 'viewer');
    await join(actor, viewer, 'viewer');
    const removals = await Promise.all(
      Array.from({ length: 4 }, (_, index) => member((index % 2 ? one : two).api, actor, viewer, { method: 'DELETE' })),
    );
    expect(removals.map((answer) => answer.status).sort()).toEqual([200, 404, 404, 404]);
  }, 30_000);
});
