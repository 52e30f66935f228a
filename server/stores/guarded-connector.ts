import { isIP } from 'node:net';
import type { ConnectionOptions } from 'node:tls';
import { createRequire } from 'node:module';
import type { TargetPolicy } from './target-policy.js';

// ioredis does not export its StandaloneConnector; its CommonJS module default-exports it.
type StandaloneConnectorClass = typeof import('ioredis/built/connectors/StandaloneConnector.js')['default'];
const StandaloneConnector: StandaloneConnectorClass = createRequire(import.meta.url)(
  'ioredis/built/connectors/StandaloneConnector.js',
).default;
type ConnectorOptions = ConstructorParameters<typeof StandaloneConnector>[0] & {
  host?: string;
  port?: number;
  tls?: ConnectionOptions;
};

/**
 * ioredis's `Connector` hook: every TCP connection a client opens (the
 * standalone one, each cluster seed, each node a cluster reports, their
 * reconnects) goes through the policy first, and connects to the address
 * that was checked, never resolving the name a second time (TLS still
 * verifies the certificate against the name).
 */
export function guardedConnector(policy: TargetPolicy): StandaloneConnectorClass {
  return class GuardedConnector extends StandaloneConnector {
    private readonly target: { host: string; port: number };

    constructor(options: ConnectorOptions) {
      super(options);
      this.target = { host: options.host ?? 'localhost', port: options.port ?? 6379 };
    }

    override async connect(onError: Parameters<InstanceType<typeof StandaloneConnector>['connect']>[0]) {
      const [address] = await policy.resolve(this.target.host, this.target.port);
      const options = this.options as ConnectorOptions;
      const servername = isIP(this.target.host) ? undefined : this.target.host;
      this.options = {
        ...options,
        host: address!,
        ...(options.tls ? { tls: { servername, ...options.tls } } : {}),
      } as typeof this.options;
      return super.connect(onError);
    }
  };
}
