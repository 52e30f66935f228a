import { parseArgs } from 'node:util';
import { endQuietlyOnClosedPipe } from './closed-pipe.js';
import { globalOptions, parseCommandArgs, type Command, type GlobalFlags } from './command.js';
import { commands } from './command-list.js';
import { createCliContext, UsageError, type CliConfig, type CliIo } from './context.js';
import { commandHelp, defaultUrl, helpText } from './help.js';
import { describeFailure } from './output.js';

/** Exit codes: 0 done, 1 the server refused or failed (its message on stderr), 2 bad usage. */
const exitCodes = { ok: 0, failed: 1, usage: 2 } as const;

/** The CLI's configuration: BULLPEN_URL and BULLPEN_TOKEN from the environment, flags override. */
function cliConfig(env: NodeJS.ProcessEnv, flags: Partial<GlobalFlags>): CliConfig {
  const token = flags.token ?? env.BULLPEN_TOKEN;
  const urlSource = flags.url !== undefined ? 'flag' : env.BULLPEN_URL ? 'env' : 'default';
  return {
    url: flags.url ?? (env.BULLPEN_URL || defaultUrl),
    urlSource,
    ...(token ? { token } : {}),
    ...(flags.conn ? { connectionId: flags.conn } : {}),
    ...(flags.reason ? { reason: flags.reason } : {}),
    json: flags.json ?? false,
  };
}

/** The first positional argument names the command; everything else is parsed by that command. */
function findCommand(args: string[]): { command?: Command; name?: string; rest: string[] } {
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
    (asked && !name ? io.stdout : io.stderr).write(helpText(commands));
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
    const code = await command.run(createCliContext(config, io, env), parsed);
    return code ?? exitCodes.ok;
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr.write(`${error.message}\n`);
      return exitCodes.usage;
    }
    const failure = describeFailure(error, config);
    io.stderr.write(config.json ? `${JSON.stringify({ error: failure.json })}\n` : `error: ${failure.text}\n`);
    return exitCodes.failed;
  }
}

endQuietlyOnClosedPipe([process.stdout, process.stderr]);
process.exitCode = await runCli(process.argv.slice(2), process.env, process);
