import type { ParseArgsOptionsConfig } from 'node:util';
import type { Command } from './command.js';

export const defaultUrl = 'http://localhost:3000';

const globalFlagHelp: Array<[string, string]> = [
  ['--url URL', `service address (env BULLPEN_URL, default ${defaultUrl})`],
  ['--token TOKEN', 'API token, sent as a bearer token (env BULLPEN_TOKEN)'],
  ['--conn NAME', "connection to act on, by name or id (default: the organization's default connection)"],
  [
    '--reason TEXT',
    'why you make this change: sent as Bullpen-Reason, kept in the audit trail (required where SERVICE_REQUIRE_REASON asks)',
  ],
  ['--json', 'print the JSON the API returned instead of tables'],
  ['-h, --help', 'help for bullpen or a command'],
];

/** Aligned two-column lines, indented by two spaces. */
function columns(rows: Array<[string, string]>): string[] {
  const width = Math.max(...rows.map(([left]) => left.length));
  return rows.map(([left, right]) => `  ${left.padEnd(width)}  ${right}`);
}

/** `--status STATUS` as the usage line writes it; `VALUE` when it does not. */
function flagWithValue(command: Command<ParseArgsOptionsConfig>, name: string): string {
  const option = command.options[name]!;
  const short = option.short ? `-${option.short}, ` : '';
  if (option.type === 'boolean') return `${short}--${name}`;
  const shown = new RegExp(`--${name} ([^\\s\\]\\)]+)`).exec(command.usage)?.[1];
  return `${short}--${name} ${shown && !shown.startsWith('-') ? shown : 'VALUE'}`;
}

export function helpText(commands: Command[]): string {
  return [
    'usage: bullpen <command> [arguments] [flags]',
    '',
    'commands:',
    ...columns(commands.map((command) => [command.name, command.summary])),
    '',
    'flags for every command:',
    ...columns(globalFlagHelp),
    '',
    "exit codes: 0 success, 1 the request failed (the server's message is printed), 2 bad usage",
    '',
    'Run "bullpen <command> --help" for its flags and examples.',
    '',
  ].join('\n');
}

/** `bullpen <command> --help`: usage, what it does, each flag, the global flags and examples. */
export function commandHelp(command: Command): string {
  const flags = Object.keys(command.options).map((name): [string, string] => [
    flagWithValue(command, name),
    String(command.flagHelp[name] ?? ''),
  ]);
  return [
    `usage: bullpen ${command.name} ${command.usage}`.trimEnd(),
    '',
    command.summary,
    '',
    ...(flags.length > 0 ? ['flags:', ...columns(flags), ''] : []),
    'flags for every command:',
    ...columns(globalFlagHelp),
    '',
    'examples:',
    ...command.examples.map((example) => `  ${example}`),
    '',
  ].join('\n');
}
