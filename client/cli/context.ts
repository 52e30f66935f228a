import type { Readable, Writable } from 'node:stream';
import { createBullpenClient, type BullpenClient } from '../index.js';

/** Where the CLI talks to and how it authenticates: from BULLPEN_URL/BULLPEN_TOKEN, flags override. */
export interface CliConfig {
  url: string;
  /** Where `url` came from: `--url`, BULLPEN_URL, or the default (said when the service cannot be reached). */
  urlSource?: 'flag' | 'env' | 'default';
  token?: string;
  /** Connection name or id; omitted: the organization's default connection. */
  connectionId?: string;
  /** `--reason`: sent as `Bullpen-Reason` with every call (kept in the audit trail; see SERVICE_REQUIRE_REASON). */
  reason?: string;
  json: boolean;
}

export interface CliIo {
  stdin: Readable & { isTTY?: boolean };
  stdout: Writable & { isTTY?: boolean };
  stderr: Writable & { isTTY?: boolean };
}

/** Everything a command needs: the typed client, the output streams, and the connection to act on. */
export interface CliContext {
  client: BullpenClient;
  config: CliConfig;
  io: CliIo;
  /** The `--conn` flag (a name or an id), else the name of the default connection from `connections.list` (asked once). */
  connectionId(): Promise<string>;
  /** The CLI's environment (a definitions import reads the secrets a document names from it). */
  env: Readonly<Record<string, string | undefined>>;
}

export class UsageError extends Error {
  override name = 'UsageError';
}

export function createCliContext(
  config: CliConfig,
  io: CliIo,
  env: Readonly<Record<string, string | undefined>> = {},
): CliContext {
  const client = createBullpenClient({
    baseUrl: config.url,
    ...(config.token ? { token: config.token } : {}),
    ...(config.reason ? { reason: config.reason } : {}),
  });
  let resolved: Promise<string> | undefined;
  return {
    client,
    config,
    io,
    env,
    connectionId() {
      resolved ??= config.connectionId ? Promise.resolve(config.connectionId) : defaultConnectionId(client);
      return resolved;
    },
  };
}

/** By name: the service takes a connection's name wherever it takes its id, and people read names. */
async function defaultConnectionId(client: BullpenClient): Promise<string> {
  const { connections } = await client.connections.list.query();
  const chosen = connections.find((connection) => connection.isDefault) ?? connections[0];
  if (!chosen) throw new UsageError('the service has no connections: add one, or pass --conn');
  return chosen.name;
}
