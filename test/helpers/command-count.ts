import type { Command } from 'ioredis';
import type { StoreClient } from '../../server/stores/redis-client.js';

type SendCommand = (this: unknown, command: Command, ...rest: unknown[]) => unknown;

/**
 * The Redis commands `client` sends while `work` runs (names, lower case),
 * seen by wrapping its sendCommand: pipelined commands count one by one.
 */
export async function commandsDuring(client: StoreClient, work: () => Promise<unknown>): Promise<string[]> {
  const sent: string[] = [];
  const target = client as unknown as { sendCommand: SendCommand };
  const original = target.sendCommand;
  target.sendCommand = function (this: unknown, command: Command, ...rest: unknown[]) {
    sent.push(command.name.toLowerCase());
    return original.call(this, command, ...rest);
  };
  try {
    await work();
  } finally {
    target.sendCommand = original;
  }
  return sent;
}
