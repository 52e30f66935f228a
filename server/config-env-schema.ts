import { z } from 'zod';
import { parseEncryptionKey } from './secrets/encryption-key.js';

/**
 * The environment's contract: each variable's type, default and bounds.
 * It reads nothing; config.ts parses `process.env` with it.
 */

const flagText = z.enum(['true', 'false', '1', '0', 'yes', 'no', '']).optional();

const envFlag = flagText.transform((value) => value === 'true' || value === '1' || value === 'yes');

/** A flag that is on unless set to false (unset or empty: on). */
const envFlagOn = flagText.transform((value) => value !== 'false' && value !== '0' && value !== 'no');

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

/** AUTH_SECRET's minimum length (characters). */
export const minAuthSecretLength = 32;

const encryptionKey = optionalText.transform((value, context) => {
  if (value === undefined) return null;
  const key = parseEncryptionKey(value);
  if (!key) context.addIssue({ code: 'custom', message: 'must be 32 bytes written as 64 hex digits or as base64' });
  return key;
});

/** Every environment variable the service reads, with its default and bounds (docs/operations.md, Configuration). */
export const envSchema = z.object({
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
  SERVICE_REQUIRE_REASON: z.enum(['off', 'destructive', 'all-writes']).default('off'),
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
    z
      .string()
      .regex(/^rediss?:\/\//, 'must be a redis:// or rediss:// URL')
      .optional(),
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
  // Bytes of one response body: a bigger job is read field by field (GET …/jobs/{jobId}/fields/{field}).
  SERVICE_MAX_RESPONSE_BYTES: z.coerce
    .number()
    .int()
    .min(65_536)
    .max(268_435_456)
    .default(16 * 1024 * 1024),
  SERVICE_QUEUE_LIST_CACHE_MS: z.coerce.number().int().min(0).max(600_000).default(5000),
  SERVICE_QUEUE_TOTALS_TRACKING: envFlagOn,
  SERVICE_SAMPLE_INTERVAL_SECONDS: z.coerce.number().int().min(5).max(3600).default(60),
  SERVICE_HISTORY_DAYS: z.coerce.number().int().min(1).max(3650).default(14),
  // At most 110 s: with the runner's 1 s poll a dead replica's task is taken over within 2 minutes.
  SERVICE_TASK_LEASE_SECONDS: z.coerce.number().int().min(5).max(110).default(60),
});

export type EnvVars = z.infer<typeof envSchema>;
