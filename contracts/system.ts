import { z } from 'zod';

export const healthSchema = z
  .object({
    status: z.enum(['ok', 'degraded']).describe('`ok` when every check passed; the service answers either way.'),
    uptimeSeconds: z.number().describe('Seconds since the process started.'),
    checks: z.object({
      persistence: z.object({
        ok: z.boolean(),
        mode: z.enum(['embedded', 'server']),
        error: z.string().optional().describe('Why persistence is unusable, when it is.'),
      }),
    }),
  })
  .describe('Liveness and what was checked.');

export const modeSchema = z.object({
  auth: z.enum(['authless', 'authenticated']),
  persistence: z.enum(['embedded', 'server']),
  connections: z.enum(['saved', 'env']).describe('`env` when SERVICE_ENV_CONNECTIONS is true.'),
});

/** The spec's "Runtime config" table, field for field. */
export const runtimeConfigSchema = z.object({
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
});

export const roleSchema = z.enum(['viewer', 'operator', 'admin', 'owner']);

export const sessionSnapshotSchema = z.object({
  authenticated: z.boolean(),
  authless: z.boolean(),
  user: z.object({ id: z.string(), name: z.string(), email: z.string().nullable() }).nullable(),
  activeOrganization: z.object({ id: z.string(), name: z.string(), slug: z.string() }).nullable(),
  role: roleSchema.nullable(),
  memberships: z.array(z.object({ organizationId: z.string(), name: z.string(), role: roleSchema })),
});

export type Health = z.infer<typeof healthSchema>;
export type Mode = z.infer<typeof modeSchema>;
export type RuntimeConfig = z.infer<typeof runtimeConfigSchema>;
export type SessionSnapshot = z.infer<typeof sessionSnapshotSchema>;
export type Role = z.infer<typeof roleSchema>;
