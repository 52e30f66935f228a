import { randomBytes } from 'node:crypto';
import path from 'node:path';
import Database from 'better-sqlite3';
import { embeddedDatabaseFile } from '../../server/persistence/orm.js';
import { request, type TestApp } from './app.js';
import { queryDatabase } from './postgres.js';

export const testPassword = 'correct horse battery';

export interface SignedInUser {
  userId: string;
  email: string;
  organizationId: string;
  /** `bullpen_session=<id>`, ready for a Cookie header. */
  cookie: string;
  sessionId: string;
}

/** The `name=value` part of the session cookie a response set, or null. */
export function sessionCookieOf(headers: Headers): string | null {
  const cookie = headers.getSetCookie().find((line) => line.startsWith('bullpen_session='));
  return cookie ? cookie.split(';')[0]! : null;
}

export function uniqueEmail(label = 'user'): string {
  return `${label}-${randomBytes(4).toString('hex')}@example.test`;
}

export async function signUp(
  app: TestApp,
  label = 'user',
  headers: Record<string, string> = {},
): Promise<SignedInUser> {
  const email = uniqueEmail(label);
  const response = await request(`${app.api}/auth/sign-up/email`, {
    method: 'POST',
    headers,
    body: { email, password: testPassword, name: label },
  });
  if (response.status !== 200) throw new Error(`sign-up failed: ${response.status} ${JSON.stringify(response.body)}`);
  const cookie = sessionCookieOf(response.headers)!;
  return {
    userId: response.body.user.id,
    email,
    organizationId: response.body.session.activeOrganizationId,
    cookie,
    sessionId: cookie.split('=')[1]!,
  };
}

/** Headers of a browser call from the app's own origin with the session cookie. */
export function asBrowser(
  app: TestApp,
  user: { cookie: string },
  extra: Record<string, string> = {},
): Record<string, string> {
  return { cookie: user.cookie, origin: app.services.auth.appOrigin, ...extra };
}

export const bearer = (token: string): Record<string, string> => ({ authorization: `Bearer ${token}` });

/**
 * Makes `user` a member of `organizationId` with `role` the only way there is:
 * its owner invites them (POST …/members answers an invitation) and they accept it.
 */
export async function addMember(
  app: TestApp,
  owner: SignedInUser,
  organizationId: string,
  user: SignedInUser,
  role: string,
): Promise<void> {
  const invited = await request(`${app.api}/organizations/${organizationId}/members`, {
    method: 'POST',
    headers: asBrowser(app, owner),
    body: { email: user.email, role },
  });
  if (invited.status !== 201) throw new Error(`invitation failed: ${invited.status} ${JSON.stringify(invited.body)}`);
  const accepted = await request(`${app.api}/invitations/${invited.body.token}/accept`, {
    method: 'POST',
    headers: asBrowser(app, user),
  });
  if (accepted.status !== 200)
    throw new Error(`accepting the invitation failed: ${accepted.status} ${JSON.stringify(accepted.body)}`);
}

/** Runs SQL on the app's own database, SQLite or PostgreSQL (write identifiers in double quotes, no parameters). */
export async function sql<T = Record<string, unknown>>(app: TestApp, statement: string): Promise<T[]> {
  const persistence = app.config.persistence;
  if (persistence.mode === 'server') return queryDatabase(persistence.databaseUrl, statement) as Promise<T[]>;
  const db = new Database(path.join(persistence.directory, embeddedDatabaseFile));
  try {
    const prepared = db.prepare(statement);
    if (prepared.reader) return prepared.all() as T[];
    prepared.run();
    return [];
  } finally {
    db.close();
  }
}

/** A timestamp literal for `sql()`: SQLite keeps MikroORM datetimes as epoch milliseconds. */
export function sqlTime(app: TestApp, date: Date): string {
  return app.config.persistence.mode === 'server' ? `'${date.toISOString()}'::timestamptz` : String(date.getTime());
}

export const asDate = (value: unknown): Date => new Date(value as string | number);
