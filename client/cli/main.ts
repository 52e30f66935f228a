import { parseArgs } from 'node:util';
import { globalOptions, parseCommandArgs, type Command, type GlobalFlags } from './command.js';
import { connectionsCommand } from './commands/connections.js';
import { historyCommand } from './commands/history.js';
import { jobCommand } from './commands/job.js';
import { jobsCommand } from './commands/jobs.js';
import { keysCommand } from './commands/keys.js';
import { pauseCommand, resumeCommand } from './commands/pause.js';
import { purgeCommand } from './commands/purge.js';
import { inviteCommand } from './commands/invite.js';
import { obliterateCommand } from './commands/obliterate.js';
import { queuesCommand } from './commands/queues.js';
import { removeCommand } from './commands/remove.js';
import { retryCommand } from './commands/retry.js';
import { moveCommand } from './commands/move.js';
import { tasksCommand } from './commands/tasks.js';
import { topCommand } from './commands/top.js';
import { watchCommand } from './commands/watch.js';
import { createCliContext, UsageError, type CliConfig, type CliIo } from './context.js';
import { describeFailure } from './output.js';

const commands: Command<any>[] = [
  connectionsCommand, queuesCommand, jobsCommand, jobCommand, retryCommand, removeCommand, purgeCommand, obliterateCommand, pauseCommand, resumeCommand, keysCommand,
  watchCommand, historyCommand, topCommand, tasksCommand, moveCommand, inviteCommand,
];

/** Exit codes: 0 done, 1 the server refused or failed (its message on stderr), 2 bad usage. */
const exitCodes = { ok: 0, failed: 1, usage: 2 } as const;

const defaultUrl = 'http://localhost:3000';

/** The CLI's configuration: BULLPEN_URL and BULLPEN_TOKEN from the environment, flags override. */
function cliConfig(env: NodeJS.ProcessEnv, flags: Partial<GlobalFlags>): CliConfig {
  const token = flags.token ?? env.BULLPEN_TOKEN;
  return {
    url: flags.url ?? env.BULLPEN_URL ?? defaultUrl,
    ...(token ? { token } : {}),
    ...(flags.conn ? { connectionId: flags.conn } : {}),
    json: flags.json ?? false,
  };
}

function helpText(): string {
  const width = Math.max(...commands.map((command) => command.name.length));
  return [
    'usage: bullpen <command> [arguments] [flags]',
    '',
    'commands:',
    ...commands.map((command) => `  ${command.name.padEnd(width)}  ${command.summary}`),
    '',
    'flags for every command:',
    `  --url URL      service address (env BULLPEN_URL, default ${defaultUrl})`,
    '  --token TOKEN  API token, sent as a bearer token (env BULLPEN_TOKEN)',
    "  --conn NAME    connection to act on, by name or id (default: the organization's default connection)",
    '  --json         print the JSON the API returned instead of tables',
    '  -h, --help     help for bullpen or a command',
    '',
    'exit codes: 0 success, 1 the request failed (the server\'s message is printed), 2 bad usage',
    '',
  ].join('\n');
}

function commandHelp(command: Command<any>): string {
  return `usage: bullpen ${command.name} ${command.usage}\n\n${command.summary}\n`;
}

/** The first positional argument names the command; everything else is parsed by that command. */
function findCommand(args: string[]): { command?: Command<any>; name?: string; rest: string[] } {
  const { tokens } = parseArgs({ args, options: globalOptions, allowPositionals: true, strict: false, tokens: true });
  const first = tokens.find((token) => token.kind === 'positional');
  if (!first) return { rest: args };
  const rest = [...args.slice(0, first.index), ...args.slice(first.index + 1)];
  return { command: commands.find((command) => command.name === first.value), name: first.value, rest };
}

export async function runCli(args: string[], env: NodeJS.ProcessEnv, io: CliIo): Promise<number> {
  const { command, name, rest } = findCommand(args);
  if (!command) {
    const asked = rest.includes('--help') || rest.includes('-h');
    if (name) io.stderr.write(`unknown command "${name}"\n\n`);
    (asked && !name ? io.stdout : io.stderr).write(helpText());
    return asked && !name ? exitCodes.ok : exitCodes.usage;
  }
  let config: CliConfig = cliConfig(env, {});
  try {
    const { parsed, globals } = parseCommandArgs(command, rest);
    if (globals.help) {
      io.stdout.write(commandHelp(command));
      return exitCodes.ok;
    }
    config = cliConfig(env, globals);
    const code = await command.run(createCliContext(config, io), parsed);
    return code ?? exitCodes.ok;
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr.write(`${error.message}\n`);
      return exitCodes.usage;
    }
    const failure = describeFailure(error, config.url);
    io.stderr.write(config.json ? `${JSON.stringify({ error: failure.json })}\n` : `error: ${failure.text}\n`);
    return exitCodes.failed;
  }
}

process.exitCode = await runCli(process.argv.slice(2), process.env, process);
