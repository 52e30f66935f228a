import { createHmac } from 'node:crypto';
import { afterAll, beforeAll } from 'vitest';
import { bootApp, request, testAuthSecret, type PersistenceKind, type TestApp } from '../../helpers/app.js';

export const day = 24 * 60 * 60 * 1000;
export const hashOf = (value: string) => createHmac('sha256', testAuthSecret).update(value).digest('hex');

/**
 * One service per persistence kind for the session tests (sessions.test.ts,
 * session-csrf.test.ts), with the auth calls they make. `app` is a live
 * binding: set once `useSessionApp()`'s beforeAll ran.
 */
export let app: TestApp;

/** Boots the service with `persistence` before the describe's tests; closes it after. */
export function useSessionApp(persistence: PersistenceKind): void {
  beforeAll(async () => {
    app = await bootApp({ persistence });
  });
  afterAll(() => app.close());
}

export const signIn = (email: string, password: string) =>
  request(`${app.api}/auth/sign-in/email`, { method: 'POST', body: { email, password } });
export const getSession = (cookie?: string) =>
  request(`${app.api}/auth/get-session`, { headers: cookie ? { cookie } : {} });
