import { createHash } from 'node:crypto';
import type { StoreClient } from '../stores/redis-client.js';

/**
 * A script sent by its SHA1 (EVALSHA): the body crosses the wire only
 * the first time a node sees it, or after a SCRIPT FLUSH (NOSCRIPT → EVAL,
 * which also caches it again).
 */
export class LuaScript {
  readonly sha: string;

  constructor(readonly body: string) {
    this.sha = createHash('sha1').update(body).digest('hex');
  }

  async run(client: StoreClient, keys: string[], args: Array<string | number>): Promise<unknown> {
    try {
      return await client.evalsha(this.sha, keys.length, ...keys, ...args);
    } catch (error) {
      if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
      return client.eval(this.body, keys.length, ...keys, ...args);
    }
  }

  /** As `run`, for a script whose reply is one binary string: answered as a Buffer, never decoded as text. */
  async runForBuffer(client: StoreClient, keys: string[], args: Array<string | number>): Promise<Buffer> {
    try {
      return (await client.callBuffer('EVALSHA', [this.sha, keys.length, ...keys, ...args])) as Buffer;
    } catch (error) {
      if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
      return (await client.callBuffer('EVAL', [this.body, keys.length, ...keys, ...args])) as Buffer;
    }
  }
}
