import path from 'node:path';
import { z } from 'zod';
import { parseEncryptionKey } from './secrets/encryption-key.js';
import { EnvConnectionError, parseEnvConnections } from './stores/env-connections.js';
import { OAuthSettingsError, readOAuthProviders, type OAuthProviderSettings } from './auth/oauth/provider-settings.js';
import type { StoreConnection } from './stores/store-connection.js';

/**
 * The only module that reads the environment. Everything else receives the
 * typed `Config` built here once, at startup.
 */

const envFlag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', ''])
  .optional()
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

const optionalText = z
  .string()
  .optional()
  .transform((value) => (value === undefined || value.trim() === '' ? undefined : value.trim()));

const port = z.coerce.number().int().min(0).max(65535);

const positiveInt = (fallback: number) => z.coerce.number().int().min(1).max(1_000_000).default(fallback);

/** `false`, `true` (one proxy hop) or the number of proxy hops whose X-Forwarded-For is believed. */
const trustProxy = z
  .string()
  .optional()
  .transform((value, issue) => {
    const text = value?.trim() ?? '';
    if (text === '' || ['false', '0', 'no'].includes(text)) return 0;
    if (['true', 'yes'].includes(text)) return 1;
    if (/^\d{1,2}$/.test(text)) return Number(text);
    issue.addIssue({ code: 'custom', message: 'must be true, false or a number of proxy hops' });
    return z.NEVER;
  });

export const minAuthSecretLength = 32;

const encryptionKey = optionalText.transform((value, context) => {
  if (value === undefined) return null;
  const key = parseEncryptionKey(value);
  if (!key) context.addIssue({ code: 'custom', message: 'must be 32 bytes written as 64 hex digits or as base64' });
  return key;
});

/** Who may create an account: see server/auth/admit-new-user.ts. */
export type SignupPolicy = 'invite' | 'open' | 'closed';

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  PORT: port.default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  SERVICE_AUTHLESS: envFlag,
  SERVICE_ENV_CONNECTIONS: envFlag,
  ANALYTICS_KEY: optionalText,
  ANALYTICS_UI_HOST: z.url().default('https://us.posthog.com'),
  ANALYTICS_UPSTREAM_URL: z.url({ protocol: /^https?$/ }).default('https://us.i.posthog.com'),
  AUTH_SECRET: optionalText.pipe(
    z.string().min(minAuthSecretLength, `must be at least ${minAuthSecretLength} characters`).optional(),
  ),
  APP_BASE_URL: optionalText.pipe(z.url().optional()),
  SERVICE_SIGNUP: z.enum(['invite', 'open', 'closed']).default('invite'),
  SERVICE_CONNECTION_ALLOW: optionalText,
  SERVICE_WEBHOOK_ALLOW: optionalText,
  OIDC_ISSUER_URL: optionalText.pipe(z.url({ protocol: /^https?$/ }).optional()),
  OIDC_CLIENT_ID: optionalText,
  OIDC_CLIENT_SECRET: optionalText,
  OIDC_DISPLAY_NAME: optionalText.pipe(z.string().max(100).optional()),
  OIDC_SCOPES: optionalText,
  GITHUB_CLIENT_ID: optionalText,
  GITHUB_CLIENT_SECRET: optionalText,
  GOOGLE_CLIENT_ID: optionalText,
  GOOGLE_CLIENT_SECRET: optionalText,
  DISABLE_RATE_LIMIT: envFlag,
  RATE_LIMIT_ENABLED: envFlag,
  RATE_LIMIT_WINDOW_SECONDS: positiveInt(60),
  RATE_LIMIT_MAX: positiveInt(300),
  RATE_LIMIT_AUTH_MAX: positiveInt(10),
  RATE_LIMIT_CONNECTION_TEST_MAX: positiveInt(10),
  RATE_LIMIT_ACCOUNT_MAX: positiveInt(10),
  RATE_LIMIT_REDIS_URL: optionalText.pipe(
    z.string().regex(/^rediss?:\/\//, 'must be a redis:// or rediss:// URL').optional(),
  ),
  TRUST_PROXY: trustProxy,
  DATABASE_URL: optionalText.pipe(
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
      .optional(),
  ),
  DATABASE_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(4000),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  DATABASE_MAX_WAITING: z.coerce.number().int().min(0).max(100_000).optional(),
  SERVICE_AUDIT_DAYS: z.coerce.number().int().min(0).max(36_500).default(365),
  SERVICE_EMBEDDED_DIR: z.string().min(1).default('./data'),
  SERVICE_ENCRYPTION_KEY: encryptionKey,
  SERVICE_ENCRYPTION_KEY_PREVIOUS: encryptionKey,
  SERVICE_METRICS_PUBLIC: envFlag,
  SERVICE_METRICS_QUEUES: optionalText,
  SERVICE_QUEUE_LIST_CACHE_MS: z.coerce.number().int().min(0).max(600_000).default(5000),
  SERVICE_SAMPLE_INTERVAL_SECONDS: z.coerce.number().int().min(5).max(3600).default(60),
  SERVICE_HISTORY_DAYS: z.coerce.number().int().min(1).max(3650).default(14),
  // At most 110 s: with the runner's 1 s poll a dead replica's task is taken over within 2 minutes.
  SERVICE_TASK_LEASE_SECONDS: z.coerce.number().int().min(5).max(110).default(60),
});

export type PersistenceMode = 'embedded' | 'server';
export type Environment = 'development' | 'test' | 'production';

export interface Config {
  environment: Environment;
  http: { port: number; host: string; /** Proxy hops whose X-Forwarded-For is believed (0: none). */ trustProxyHops: number };
  logLevel: string;
  authless: boolean;
  envConnections: boolean;
  /** SERVICE_REDIS_URL_<NAME> connections; read only when envConnections is true. */
  environmentConnections: StoreConnection[];
  /** upstreamUrl: where `/ingest/*` is proxied to (only when a key is set). */
  analytics: { key: string | null; uiHost: string; upstreamUrl: string };
  /**
   * secret: null only in embedded mode, where the service keeps a generated one in the data directory.
   * appBaseUrl: null when APP_BASE_URL is unset: then http://localhost:{the port actually bound}.
   * oauthProviders: the identity providers whose variables are all set (their routes answer 400 in authless mode).
   */
  auth: { secret: string | null; appBaseUrl: string | null; signup: SignupPolicy; oauthProviders: OAuthProviderSettings[] };
  /** SERVICE_CONNECTION_ALLOW entries; null: any target (see server/stores/connection-allow-list.ts). */
  connectionAllow: string[] | null;
  /** SERVICE_WEBHOOK_ALLOW entries (same syntax); null: any webhook target but link-local ones. */
  webhookAllow: string[] | null;
  rateLimit: RateLimitConfig;
  /** AES-256-GCM key for saved connection URLs; null: generated in the data dir (embedded; server mode refuses to start). */
  encryptionKey: Buffer | null;
  /** SERVICE_ENCRYPTION_KEY_PREVIOUS: rows sealed with it are re-sealed with encryptionKey at startup. */
  previousEncryptionKey: Buffer | null;
  /** How long a connection's discovered queue names are reused; 0 rescans on every list. */
  queueListCacheMs: number;
  persistence:
    | { mode: 'embedded'; directory: string }
    | { mode: 'server'; databaseUrl: string };
  /**
   * `public`: GET /api/prometheus answers without authentication. `queues`:
   * comma-separated name globs of the queues it exports (null: all).
   */
  metrics: { public: boolean; queues: string | null };
  /** The sampler's period and how many days of 15-minute roll-ups are kept. */
  history: { sampleIntervalMs: number; retentionDays: number };
  /** leaseTtlMs: a replica that dies loses its background task this long after its last renewal. */
  tasks: { leaseTtlMs: number };
  database: DatabaseLimits;
  /** Audit events older than this many days are deleted; 0 keeps them all. */
  auditRetentionDays: number;
}

/** Bounds on every wait for the database (see README "Operating under faults"). */
export interface DatabaseLimits {
  /** Budget of one database wait: acquiring a connection plus running a statement. */
  timeoutMs: number;
  poolSize: number;
  /** Requests allowed to wait for a pooled connection; the rest are refused at once. */
  maxWaiting: number;
}

export interface RateLimitConfig {
  /** DISABLE_RATE_LIMIT as given; honoured only outside production. */
  disabled: boolean;
  /** Whether limits apply: always in production; elsewhere when RATE_LIMIT_ENABLED and not DISABLE_RATE_LIMIT. */
  enabled: boolean;
  /** DISABLE_RATE_LIMIT=true was refused because NODE_ENV is production (startup warns). */
  disableRefused: boolean;
  windowSeconds: number;
  /** Requests per window and caller on the general API. */
  max: number;
  /** Sign-in and sign-up attempts per window and client. */
  authMax: number;
  /** Connection tests per window and caller. */
  connectionTestMax: number;
  /** Failed sign-ins per window and account, whatever the source address. */
  accountMax: number;
  redisUrl: string | null;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Parses an environment record; throws a ConfigError whose message names the bad variable. */
export function loadConfig(env: Record<string, string | undefined>): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const variable = String(issue.path[0] ?? 'environment');
    const value = env[variable];
    const shown = value === undefined ? 'unset' : `"${/SECRET|URL|KEY/.test(variable) ? '<redacted>' : value}"`;
    throw new ConfigError(`Invalid ${variable} (${shown}): ${issue.message}`);
  }
  const vars = parsed.data;
  if (!vars.SERVICE_AUTHLESS && vars.DATABASE_URL && !vars.AUTH_SECRET) {
    throw new ConfigError(
      `Invalid AUTH_SECRET (unset): required when authentication is enabled with server persistence (DATABASE_URL); at least ${minAuthSecretLength} characters`,
    );
  }
  if (vars.DATABASE_URL && !vars.SERVICE_ENCRYPTION_KEY) {
    throw new ConfigError(
      'Invalid SERVICE_ENCRYPTION_KEY (unset): required with server persistence (DATABASE_URL); saved connection URLs and other secrets are sealed with it (32 bytes as 64 hex digits or base64)',
    );
  }
  if (vars.NODE_ENV === 'production' && !vars.SERVICE_AUTHLESS && !vars.APP_BASE_URL) {
    throw new ConfigError(
      'Invalid APP_BASE_URL (unset): required in production with authentication on; set it to the origin browsers use, e.g. https://bullpen.example.com',
    );
  }
  return {
    environmentConnections: vars.SERVICE_ENV_CONNECTIONS ? readEnvConnections(env) : [],
    environment: vars.NODE_ENV,
    http: { port: vars.PORT, host: vars.HOST, trustProxyHops: vars.TRUST_PROXY },
    logLevel: vars.LOG_LEVEL,
    authless: vars.SERVICE_AUTHLESS,
    envConnections: vars.SERVICE_ENV_CONNECTIONS,
    analytics: { key: vars.ANALYTICS_KEY ?? null, uiHost: vars.ANALYTICS_UI_HOST, upstreamUrl: vars.ANALYTICS_UPSTREAM_URL },
    auth: { secret: vars.AUTH_SECRET ?? null, appBaseUrl: vars.APP_BASE_URL ?? null, signup: vars.SERVICE_SIGNUP, oauthProviders: readOAuthSettings(vars) },
    connectionAllow: vars.SERVICE_CONNECTION_ALLOW ? vars.SERVICE_CONNECTION_ALLOW.split(',').map((entry) => entry.trim()).filter(Boolean) : null,
    webhookAllow: vars.SERVICE_WEBHOOK_ALLOW ? vars.SERVICE_WEBHOOK_ALLOW.split(',').map((entry) => entry.trim()).filter(Boolean) : null,
    rateLimit: rateLimitConfig(vars),
    encryptionKey: vars.SERVICE_ENCRYPTION_KEY,
    previousEncryptionKey: vars.SERVICE_ENCRYPTION_KEY_PREVIOUS,
    queueListCacheMs: vars.SERVICE_QUEUE_LIST_CACHE_MS,
    persistence: vars.DATABASE_URL
      ? { mode: 'server', databaseUrl: vars.DATABASE_URL }
      : { mode: 'embedded', directory: path.resolve(vars.SERVICE_EMBEDDED_DIR) },
    metrics: { public: vars.SERVICE_METRICS_PUBLIC, queues: vars.SERVICE_METRICS_QUEUES ?? null },
    history: { sampleIntervalMs: vars.SERVICE_SAMPLE_INTERVAL_SECONDS * 1000, retentionDays: vars.SERVICE_HISTORY_DAYS },
    tasks: { leaseTtlMs: vars.SERVICE_TASK_LEASE_SECONDS * 1000 },
    database: {
      timeoutMs: vars.DATABASE_TIMEOUT_MS,
      poolSize: vars.DATABASE_POOL_SIZE,
      maxWaiting: vars.DATABASE_MAX_WAITING ?? 4 * vars.DATABASE_POOL_SIZE,
    },
    auditRetentionDays: vars.SERVICE_AUDIT_DAYS,
  };
}

function rateLimitConfig(vars: z.infer<typeof envSchema>): RateLimitConfig {
  const production = vars.NODE_ENV === 'production';
  const disableRefused = production && vars.DISABLE_RATE_LIMIT;
  const honouredDisable = !production && vars.DISABLE_RATE_LIMIT;
  return {
    disabled: vars.DISABLE_RATE_LIMIT,
    enabled: production || (!honouredDisable && vars.RATE_LIMIT_ENABLED),
    disableRefused,
    windowSeconds: vars.RATE_LIMIT_WINDOW_SECONDS,
    max: vars.RATE_LIMIT_MAX,
    authMax: vars.RATE_LIMIT_AUTH_MAX,
    connectionTestMax: vars.RATE_LIMIT_CONNECTION_TEST_MAX,
    accountMax: vars.RATE_LIMIT_ACCOUNT_MAX,
    redisUrl: vars.RATE_LIMIT_REDIS_URL ?? null,
  };
}

function readOAuthSettings(vars: z.infer<typeof envSchema>): OAuthProviderSettings[] {
  try {
    return readOAuthProviders(vars);
  } catch (error) {
    if (error instanceof OAuthSettingsError) throw new ConfigError(error.message);
    throw error;
  }
}

function readEnvConnections(env: Record<string, string | undefined>): StoreConnection[] {
  try {
    return parseEnvConnections(env);
  } catch (error) {
    if (error instanceof EnvConnectionError) throw new ConfigError(error.message);
    throw error;
  }
}

export function loadConfigFromProcessEnv(): Config {
  return loadConfig(process.env);
}
