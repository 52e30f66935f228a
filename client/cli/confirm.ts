import type { CliContext } from './context.js';
import { askLine } from './prompt.js';

/** The flag of destructive commands: the name a `confirm`-protected connection asks for (docs/api.md, "Protected connections"). */
export const confirmFlag = { confirm: { type: 'string' } } as const;

/** `{ confirmName }` to spread into a destructive call's body, or nothing. */
export type Confirmation = { confirmName?: string };

/**
 * The `confirmName` a destructive call on `queueName` sends. `--confirm NAME`
 * is sent as given (the server judges it). Without it, on a terminal, a
 * connection whose protection is `confirm` gets a prompt for the queue name
 * (a different answer stops the command before anything is sent). Otherwise
 * nothing: a `confirm` connection then answers 403 and the printed failure
 * names the flag to pass (output.ts), so scripts never wait on a prompt.
 */
export async function confirmationFor(
  context: CliContext,
  queueName: string,
  given: string | undefined,
  what: string,
): Promise<Confirmation> {
  if (given !== undefined) return { confirmName: given };
  if (!context.io.stdin.isTTY) return {};
  const wanted = await context.connectionId();
  const { connections } = await context.client.connections.list.query();
  const connection = connections.find((candidate) => candidate.id === wanted || candidate.name === wanted);
  if (connection?.protection !== 'confirm') return {};
  const typed = await askLine(
    context.io,
    `Connection "${connection.name}" asks destructive actions for confirmation: this ${what}.\nType the queue name to confirm: `,
  );
  if (typed !== queueName) throw new Error(`confirmation did not match the queue name "${queueName}": nothing sent`);
  return { confirmName: typed };
}
