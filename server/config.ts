import path from 'node:path';
import { envSchema, minAuthSecretLength, type EnvVars } from './config-env-schema.js';
import type { Config, RateLimitConfig } from './config-types.js';
import { EnvConnectionError, parseEnvConnections } from './stores/env-connections.js';
import { OAuthSettingsError, readOAuthProviders, type OAuthProviderSettings } from './auth/oauth/provider-settings.js';
import type { StoreConnection } from './stores/store-connection.js';

/**
 * The only module that reads the environment. Everything else receives the
 * typed `Config` built here once, at startup (its shape: config-types.ts;
 * the variables' contract: config-env-schema.ts).
 */

export { minAuthSecretLength };
export type {
  Config,
  DatabaseLimits,
  Environment,
  PersistenceMode,
  RateLimitConfig,
  SignupPolicy,
} from './config-types.js';

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
    http: {
      port: vars.PORT,
      host: vars.HOST,
      trustProxyHops: vars.TRUST_PROXY,
      maxResponseBytes: vars.SERVICE_MAX_RESPONSE_BYTES,
    },
    logLevel: vars.LOG_LEVEL,
    authless: vars.SERVICE_AUTHLESS,
    envConnections: vars.SERVICE_ENV_CONNECTIONS,
    analytics: {
      key: vars.ANALYTICS_KEY ?? null,
      uiHost: vars.ANALYTICS_UI_HOST,
      upstreamUrl: vars.ANALYTICS_UPSTREAM_URL,
    },
    auth: {
      secret: vars.AUTH_SECRET ?? null,
      appBaseUrl: vars.APP_BASE_URL ?? null,
      signup: vars.SERVICE_SIGNUP,
      oauthProviders: readOAuthSettings(vars),
    },
    connectionAllow: vars.SERVICE_CONNECTION_ALLOW
      ? vars.SERVICE_CONNECTION_ALLOW.split(',')
          .map((entry) => entry.trim())
          .filter(Boolean)
      : null,
    webhookAllow: vars.SERVICE_WEBHOOK_ALLOW
      ? vars.SERVICE_WEBHOOK_ALLOW.split(',')
          .map((entry) => entry.trim())
          .filter(Boolean)
      : null,
    rateLimit: rateLimitConfig(vars),
    encryptionKey: vars.SERVICE_ENCRYPTION_KEY,
    previousEncryptionKey: vars.SERVICE_ENCRYPTION_KEY_PREVIOUS,
    queueListCacheMs: vars.SERVICE_QUEUE_LIST_CACHE_MS,
    queueTotalsTracking: vars.SERVICE_QUEUE_TOTALS_TRACKING,
    persistence: vars.DATABASE_URL
      ? { mode: 'server', databaseUrl: vars.DATABASE_URL }
      : { mode: 'embedded', directory: path.resolve(vars.SERVICE_EMBEDDED_DIR) },
    metrics: { public: vars.SERVICE_METRICS_PUBLIC, queues: vars.SERVICE_METRICS_QUEUES ?? null },
    history: {
      sampleIntervalMs: vars.SERVICE_SAMPLE_INTERVAL_SECONDS * 1000,
      retentionDays: vars.SERVICE_HISTORY_DAYS,
    },
    tasks: { leaseTtlMs: vars.SERVICE_TASK_LEASE_SECONDS * 1000 },
    database: {
      timeoutMs: vars.DATABASE_TIMEOUT_MS,
      poolSize: vars.DATABASE_POOL_SIZE,
      maxWaiting: vars.DATABASE_MAX_WAITING ?? 4 * vars.DATABASE_POOL_SIZE,
    },
    auditRetentionDays: vars.SERVICE_AUDIT_DAYS,
    requireReason: vars.SERVICE_REQUIRE_REASON,
  };
}

function rateLimitConfig(vars: EnvVars): RateLimitConfig {
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

function readOAuthSettings(vars: EnvVars): OAuthProviderSettings[] {
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
