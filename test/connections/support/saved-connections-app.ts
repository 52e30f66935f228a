import { afterAll, beforeAll } from 'vitest';
import { bootApp, request, type PersistenceKind, type TestApp } from '../../helpers/app.js';
import { testEncryptionKey } from '../../helpers/connections.js';

/**
 * The service (authless, with an encryption key) the saved-connection files
 * call the /api/connections routes of, on one persistence kind a describe
 * block. `app` is a live binding: set by the block's beforeAll; the blocks of
 * a `describe.each` run one after the other, each on its own service.
 */
export const password = 'pa55-w0rd-only-here';
export let app: TestApp;
export const create = (body: unknown) => request(`${app.api}/connections`, { method: 'POST', body });
export const patch = (id: string, body: unknown) => request(`${app.api}/connections/${id}`, { method: 'PATCH', body });
export const remove = (id: string) => request(`${app.api}/connections/${id}`, { method: 'DELETE' });
export const list = async () =>
  (await request(`${app.api}/connections`)).body.connections as Array<{ id: string; name: string; isDefault: boolean }>;
export const defaults = async () =>
  (await list()).filter((connection) => connection.isDefault).map((connection) => connection.name);

/** Boots the service on `persistence` before the block's tests; closes it after. */
export function useSavedConnectionsApp(persistence: PersistenceKind): void {
  beforeAll(async () => {
    app = await bootApp({ persistence, env: { SERVICE_AUTHLESS: 'true', SERVICE_ENCRYPTION_KEY: testEncryptionKey } });
  });
  afterAll(() => app.close());
}
