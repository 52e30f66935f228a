import type { OAuthProviderSettings } from './auth/oauth/provider-settings.js';
import type { StoreConnection } from './stores/store-connection.js';

/** Who may create an account: see routers/auth/admit-new-user.ts. */
export type SignupPolicy = 'invite' | 'open' | 'closed';

/** Which store changes need a `Bullpen-Reason` (SERVICE_REQUIRE_REASON): see server/auth/require-reason.ts. */
export type ReasonPolicy = 'off' | 'destructive' | 'all-writes';

export type PersistenceMode = 'embedded' | 'server';
export type Environment = 'development' | 'test' | 'production';

export interface Config {
  environment: Environment;
  http: {
    port: number;
    host: string;
    /** Proxy hops whose X-Forwarded-For is believed (0: none). */
    trustProxyHops: number;
    /** SERVICE_MAX_RESPONSE_BYTES: the largest response body; a larger one is refused (RESPONSE_TOO_LARGE) before it is built. */
    maxResponseBytes: number;
  };
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
  auth: {
    secret: string | null;
    appBaseUrl: string | null;
    signup: SignupPolicy;
    oauthProviders: OAuthProviderSettings[];
  };
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
  /** SERVICE_QUEUE_TOTALS_TRACKING: keep the list's totals exact with client-side tracking (default on). */
  queueTotalsTracking: boolean;
  persistence: { mode: 'embedded'; directory: string } | { mode: 'server'; databaseUrl: string };
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
  /** Store changes that must give a reason (the `Bullpen-Reason` header or the MCP `reason` argument). */
  requireReason: ReasonPolicy;
}

/** Bounds on every wait for the database (see docs/operations.md, "Operating under faults"). */
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
