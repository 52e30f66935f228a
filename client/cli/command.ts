import { parseArgs, type ParseArgsOptionsConfig } from 'node:util';
import { UsageError, type CliContext } from './context.js';

/** Flags every command takes. */
export const globalOptions = {
  url: { type: 'string' },
  token: { type: 'string' },
  conn: { type: 'string' },
  reason: { type: 'string' },
  json: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
} as const satisfies ParseArgsOptionsConfig;

type ParsedFor<O extends ParseArgsOptionsConfig> = ReturnType<
  typeof parseArgs<{ options: O & typeof globalOptions; allowPositionals: true; strict: true }>
>;

export interface Command<O extends ParseArgsOptionsConfig = ParseArgsOptionsConfig> {
  name: string;
  /** Arguments and flags after the command name, e.g. `<queue> [--status STATUS]`. */
  usage: string;
  summary: string;
  options: O;
  /** One line of help per flag of `options` (`bullpen <command> --help`). */
  flagHelp: { [K in keyof O]: string };
  /** Whole command lines an operator would type, shown under "examples:". */
  examples: string[];
  /** How many positionals the command takes: [min, max]. */
  arity: [number, number];
  /** Resolves with the exit code (0 when nothing is returned). */
  // biome-ignore lint/suspicious/noConfusingVoidType: a command that returns nothing exits 0
  run(context: CliContext, parsed: { positionals: string[]; values: ParsedFor<O>['values'] }): Promise<number | void>;
}

/** Keeps a command's flag types attached to its `run`. */
export function defineCommand<O extends ParseArgsOptionsConfig>(command: Command<O>): Command<O> {
  return command;
}

/** The global flags' values, whatever the command. */
export interface GlobalFlags {
  url?: string;
  token?: string;
  conn?: string;
  reason?: string;
  json: boolean;
  help: boolean;
}

export function parseCommandArgs<O extends ParseArgsOptionsConfig>(command: Command<O>, args: string[]) {
  let parsed: ParsedFor<O>;
  try {
    parsed = parseArgs({
      args,
      options: { ...command.options, ...globalOptions },
      allowPositionals: true,
      strict: true,
    }) as ParsedFor<O>;
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const globals = parsed.values as GlobalFlags;
  const [min, max] = command.arity;
  const count = parsed.positionals.length;
  if (!globals.help && (count < min || count > max)) {
    throw new UsageError(`usage: bullpen ${command.name} ${command.usage}`);
  }
  return { parsed, globals };
}

/** A whole number flag, e.g. `--page 2`. */
export function integerFlag(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value)) throw new UsageError(`--${name} must be a whole number, got "${value}"`);
  return Number(value);
}
