import { z } from 'zod';

export const healthSchema = z
  .object({
    status: z.enum(['ok', 'degraded']).describe('`ok` when every check passed; the service answers either way.'),
    uptimeSeconds: z.number().describe('Seconds since the process started.'),
    version: z
      .string()
      .describe("The service's version (semver); the client package and the OpenAPI document carry the same."),
    checks: z.object({
      persistence: z.object({
        ok: z.boolean(),
        mode: z.enum(['embedded', 'server']),
        error: z.string().optional().describe('Why persistence is unusable, when it is.'),
      }),
    }),
  })
  .describe('Liveness and what was checked.')
  .meta({ id: 'Health' });

const readinessCheck = z.object({
  ok: z.boolean(),
  error: z.string().optional().describe('Why it does not answer, when it does not.'),
});

export const readinessSchema = z
  .object({
    status: z.literal('ready'),
    checks: z.object({
      database: readinessCheck.extend({ mode: z.enum(['embedded', 'server']) }),
      stores: z
        .array(readinessCheck.extend({ connectionId: z.string() }))
        .describe('Each environment connection (SERVICE_ENV_CONNECTIONS); empty with saved connections.'),
    }),
  })
  .describe('Everything the service needs answers; otherwise 503 naming what does not, with the same `checks`.');

export type Readiness = z.infer<typeof readinessSchema>;

export const modeSchema = z
  .object({
    auth: z.enum(['authless', 'authenticated']),
    persistence: z.enum(['embedded', 'server']),
    connections: z.enum(['saved', 'env']).describe('`env` when SERVICE_ENV_CONNECTIONS is true.'),
  })
  .meta({ id: 'Mode' });

/** The spec's "Runtime config" table, field for field. */
export const runtimeConfigSchema = z
  .object({
    authless: z.boolean().describe('Whether authless mode is active.'),
    envConnections: z.boolean().describe('Whether environment-driven connection mode is active.'),
    persistence: z.enum(['server', 'embedded']),
    stateless: z.boolean().describe('`true` when persistence is `embedded`.'),
    environment: z.enum(['development', 'test', 'production']),
    analytics: z.object({
      enabled: z.boolean().describe('`true` when ANALYTICS_KEY is set.'),
      key: z.string().nullable().describe('Analytics project key; null when disabled.'),
      host: z.literal('/ingest').describe("The service's reverse-proxied analytics path."),
      uiHost: z.string().describe('URL of the analytics UI used by the frontend.'),
    }),
  })
  .meta({ id: 'AppConfig' });

export const roleSchema = z.enum(['viewer', 'operator', 'admin', 'owner']);

export const sessionSnapshotSchema = z
  .object({
    authenticated: z.boolean(),
    authless: z.boolean(),
    user: z.object({ id: z.string(), name: z.string(), email: z.string().nullable() }).nullable(),
    activeOrganization: z.object({ id: z.string(), name: z.string(), slug: z.string() }).nullable(),
    role: roleSchema.nullable(),
    memberships: z.array(z.object({ organizationId: z.string(), name: z.string(), role: roleSchema })),
  })
  .meta({ id: 'SessionSnapshot' });

export type Health = z.infer<typeof healthSchema>;
export type Mode = z.infer<typeof modeSchema>;
export type RuntimeConfig = z.infer<typeof runtimeConfigSchema>;
export type SessionSnapshot = z.infer<typeof sessionSnapshotSchema>;
export type Role = z.infer<typeof roleSchema>;
