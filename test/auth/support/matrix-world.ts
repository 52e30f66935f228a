import path from 'node:path';
import Database from 'better-sqlite3';
import { Redis } from 'ioredis';
import { connectionProtections, type ConnectionProtection } from '../../../contracts/protection.js';
import type { Role } from '../../../contracts/system.js';
import { embeddedDatabaseFile } from '../../../server/persistence/orm.js';
import { bootApp, request, type TestApp } from '../../helpers/app.js';
import { addMember, asBrowser, signUp, type SignedInUser } from '../../helpers/auth.js';
import { deleteKeysMatching, redisUrl, uniquePrefix } from '../../helpers/stores.js';
import { QueueTemplate } from './queue-template.js';

export const matrixRoles = ['viewer', 'operator', 'admin', 'owner', 'token', 'reader'] as const;
export type MatrixRole = (typeof matrixRoles)[number];
export const relations = ['same', 'another', 'both'] as const;
export type Relation = (typeof relations)[number];

/** Who calls: a session cookie (people) or a bearer token (`token`: an operator token made by an owner). */
export interface Caller {
  headers: Record<string, string>;
  userId: string;
  /** The organization the call acts in when no path names one: A (the target's) or B. */
  actsIn: 'A' | 'B';
  /** The role it has in A when it acts there; null when it has none. */
  roleInA: Role | null;
  isToken: boolean;
  /** A read-scoped token (`reader`): refused every change. */
  readOnly: boolean;
}

export interface SavedConnection {
  id: string;
  name: string;
  prefix: string;
  protection: ConnectionProtection;
}

/**
 * The organizations and people the adversarial tests act among. Organization
 * A is the instance's own (its owners are instance owners) and holds one
 * saved connection per protection; B is another organization, owned by
 * someone with no role in A. For each role there are three callers:
 * `same` (a member of A with that role), `another` (a member of B only) and
 * `both` (that role in A, owner in B); `token` is an operator token whose
 * organization is A (same), or B (another, both); `reader` the same with the
 * owner role and scope `read`.
 */
export class MatrixWorld {
  readonly redis = new Redis({ host: '127.0.0.1', port: 6379, db: 0, lazyConnect: true });
  readonly template: QueueTemplate;
  connections = {} as Record<ConnectionProtection, SavedConnection>;
  instanceOwner!: SignedInUser;
  ownerB!: SignedInUser;
  organizationA = '';
  organizationB = '';
  /** A read-only handle on the service's SQLite file, for snapshots of every row. */
  db!: Database.Database;
  private readonly people = new Map<string, SignedInUser>();
  private readonly tokens = new Map<string, string>();

  private constructor(readonly app: TestApp) {
    this.template = new QueueTemplate(this.redis, uniquePrefix('tpl'));
  }

  static async boot(): Promise<MatrixWorld> {
    const app = await bootApp({
      env: { DISABLE_RATE_LIMIT: 'true', SERVICE_QUEUE_LIST_CACHE_MS: '0', SERVICE_WEBHOOK_ALLOW: '127.0.0.1' },
    });
    const world = new MatrixWorld(app);
    await world.populate();
    world.db = new Database(
      path.join((app.config.persistence as { directory: string }).directory, embeddedDatabaseFile),
      { readonly: true },
    );
    return world;
  }

  /** The browser headers of a person (cookie, same origin), acting in `organizationId` when given. */
  browser(user: SignedInUser, organizationId?: string): Record<string, string> {
    return asBrowser(this.app, user, organizationId ? { 'x-organization-id': organizationId } : {});
  }

  private async populate(): Promise<void> {
    const { app } = this;
    this.instanceOwner = await signUp(app, 'instance-owner');
    this.organizationA = this.instanceOwner.organizationId;
    this.ownerB = await signUp(app, 'owner-b');
    this.organizationB = (
      await request(`${app.api}/organizations`, {
        method: 'POST',
        headers: this.browser(this.ownerB),
        body: { name: 'B' },
      })
    ).body.id;
    for (const role of ['viewer', 'operator', 'admin', 'owner'] as const) {
      const same = await signUp(app, `same-${role}`);
      await addMember(app, this.instanceOwner, this.organizationA, same, role);
      const another = await signUp(app, `another-${role}`);
      if (role !== 'owner') await addMember(app, this.ownerB, this.organizationB, another, role);
      else await addMember(app, this.ownerB, this.organizationB, another, 'owner');
      const both = await signUp(app, `both-${role}`);
      await addMember(app, this.instanceOwner, this.organizationA, both, role);
      await addMember(app, this.ownerB, this.organizationB, both, 'owner');
      Object.entries({ same, another, both }).forEach(([relation, user]) => {
        this.people.set(`${relation}:${role}`, user);
      });
    }
    for (const [kind, body] of [
      ['token', { role: 'operator' }],
      ['reader', { role: 'owner', scope: 'read' }],
    ] as const) {
      this.tokens.set(`${kind}:same`, await this.token(this.people.get('same:owner')!, this.organizationA, body));
      this.tokens.set(`${kind}:another`, await this.token(this.ownerB, this.organizationB, body));
      this.tokens.set(`${kind}:both`, await this.token(this.people.get('both:owner')!, this.organizationB, body));
    }
    for (const protection of connectionProtections)
      this.connections[protection] = await this.saveConnection(protection);
    await this.template.build();
  }

  private async token(user: SignedInUser, organizationId: string, body: Record<string, string>): Promise<string> {
    const created = await request(`${this.app.api}/auth/tokens`, {
      method: 'POST',
      headers: this.browser(user, organizationId),
      body: { name: 'matrix', ...body },
    });
    if (created.status !== 201 && created.status !== 200)
      throw new Error(`token: ${created.status} ${JSON.stringify(created.body)}`);
    return created.body.token;
  }

  private async saveConnection(protection: ConnectionProtection): Promise<SavedConnection> {
    const prefix = uniquePrefix('mx');
    const body = { name: `conn-${protection}`, url: `${redisUrl}/0`, prefix, protection };
    const created = await request(`${this.app.api}/connections`, {
      method: 'POST',
      headers: this.browser(this.instanceOwner, this.organizationA),
      body,
    });
    if (created.status !== 201) throw new Error(`connection: ${created.status} ${JSON.stringify(created.body)}`);
    return { id: created.body.id, name: body.name, prefix, protection };
  }

  /**
   * The caller for a role and relation. `both` acts in A when `viaA`, else in
   * B (its session's choice, or its token's organization).
   */
  caller(role: MatrixRole, relation: Relation, viaA: boolean): Caller {
    if (role === 'token' || role === 'reader') {
      const actsIn = relation === 'same' ? 'A' : 'B';
      const roleInA = relation !== 'same' ? null : role === 'token' ? 'operator' : 'owner';
      return {
        headers: { authorization: `Bearer ${this.tokens.get(`${role}:${relation}`)!}` },
        userId: '',
        actsIn,
        roleInA,
        isToken: true,
        readOnly: role === 'reader',
      };
    }
    const user = this.people.get(`${relation}:${role}`)!;
    const actsIn = relation === 'same' || (relation === 'both' && viaA) ? 'A' : 'B';
    const organizationId = actsIn === 'A' ? this.organizationA : this.organizationB;
    return {
      headers: this.browser(user, organizationId),
      userId: user.userId,
      actsIn,
      roleInA: relation === 'another' ? null : role,
      isToken: false,
      readOnly: false,
    };
  }

  async close(): Promise<void> {
    for (const connection of Object.values(this.connections))
      await deleteKeysMatching(this.redis, `${connection.prefix}*`);
    await this.template.removeAll();
    this.redis.disconnect();
    this.db?.close();
    await this.app.close();
  }
}
