import { createServer } from 'node:net';
import { request, testAuthSecret } from '../../helpers/app.js';
import { sessionCookieOf, testPassword, uniqueEmail } from '../../helpers/auth.js';
import { compiledServiceEntry } from '../../helpers/compiled-service.js';
import { testEncryptionKey } from '../../helpers/connections.js';
import { startServiceProcess, type ServiceProcess } from '../../helpers/process.js';

export const replicaOrigin = 'http://localhost:3000';

export interface Replica {
  api: string;
  process: ServiceProcess;
  stop(): Promise<void>;
}

/**
 * One service instance as its own process (as a replica runs), on the given PostgreSQL database.
 * `compiled`: the bundle `npm start` and the image run, not the TypeScript loader (for memory figures).
 */
export async function startReplica(
  databaseUrl: string,
  env: Record<string, string> = {},
  options: { nodeArgs?: string[]; compiled?: boolean } = {},
): Promise<Replica> {
  const entry = options.compiled ? await compiledServiceEntry() : undefined;
  const service = startServiceProcess(
    {
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: 'info',
      DATABASE_URL: databaseUrl,
      AUTH_SECRET: testAuthSecret,
      SERVICE_ENCRYPTION_KEY: testEncryptionKey,
      // Each test user signs up to an organization of their own, as under issue 14's open policy.
      SERVICE_SIGNUP: 'open',
      APP_BASE_URL: replicaOrigin,
      ...env,
    },
    { nodeArgs: options.nodeArgs, entry },
  );
  const url = env.PORT
    ? await waitForHealth(`http://127.0.0.1:${env.PORT}`, service)
    : (await service.waitForOutput(/http:\/\/127\.0\.0\.1:\d+/, 30_000)).trim();
  return {
    api: `${url}/api`,
    process: service,
    async stop() {
      service.child.kill('SIGTERM');
      await service.exited;
    },
  };
}

/** With a quiet log level the child does not print its address: poll health on the port we gave it. */
async function waitForHealth(url: string, service: ServiceProcess): Promise<string> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline && service.child.exitCode === null) {
    if (
      await fetch(`${url}/api/health`).then(
        (response) => response.ok,
        () => false,
      )
    )
      return url;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`the service on ${url} did not become healthy:\n${service.output()}`);
}

/** A free loopback port (the child is told to use it). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export interface ReplicaUser {
  userId: string;
  email: string;
  organizationId: string;
  cookie: string;
}

export async function signUpOn(api: string, label: string): Promise<ReplicaUser> {
  const email = uniqueEmail(label);
  const response = await request(`${api}/auth/sign-up/email`, {
    method: 'POST',
    body: { email, password: testPassword, name: label },
  });
  if (response.status !== 200) throw new Error(`sign-up failed: ${response.status} ${JSON.stringify(response.body)}`);
  const cookie = sessionCookieOf(response.headers)!;
  return { userId: response.body.user.id, email, organizationId: response.body.session.activeOrganizationId, cookie };
}

/** Headers of a same-origin browser call with the user's session. */
export const browser = (user: { cookie: string }) => ({ cookie: user.cookie, origin: replicaOrigin });
