import type { ConnectionProtection } from '../../contracts/protection.js';

export type ConnectionEnvironment = 'development' | 'staging' | 'production';

/**
 * A connection to a Redis store as the server uses it: with the real URL.
 * Never serialize this to a response or a log line; contracts/ has the
 * redacted public shape.
 */
export interface StoreConnection {
  id: string;
  /** Owning organization; null for environment connections, which every organization sees. */
  organizationId: string | null;
  name: string;
  /** One URL, or for a cluster a comma-separated list of seed node URLs. */
  url: string;
  environment: ConnectionEnvironment;
  /** BullMQ key prefixes of the queues on this store; the first is the default. */
  prefixes: string[];
  isDefault: boolean;
  tls: { enabled: boolean; allowSelfSigned: boolean };
  cluster: boolean;
  /** What the connection refuses (server/auth/connection-protection.ts). */
  protection: ConnectionProtection;
  source: 'saved' | 'env';
  createdAt: Date;
  updatedAt: Date;
}
