import type { Writable } from 'node:stream';
import { isBullpenError, type BullpenError } from '../errors.js';
import type { CliConfig } from './context.js';

export type Cell = string | number | boolean | null | undefined;

const maxCellWidth = 60;

function cellText(value: Cell): string {
  if (value === null || value === undefined) return '-';
  const text = String(value).replace(/\s+/g, ' ');
  return text.length > maxCellWidth ? `${text.slice(0, maxCellWidth - 1)}…` : text;
}

/** A plain aligned table with an upper-case header row. */
export function formatTable(headers: string[], rows: Cell[][]): string {
  const cells = rows.map((row) => row.map(cellText));
  const widths = headers.map((header, column) =>
    Math.max(header.length, ...cells.map((row) => row[column]?.length ?? 0)),
  );
  const line = (row: string[]) =>
    row
      .map((text, column) => text.padEnd(widths[column] ?? 0))
      .join('  ')
      .trimEnd();
  return `${[line(headers.map((header) => header.toUpperCase())), ...cells.map(line)].join('\n')}\n`;
}

export function writeJson(stream: Writable, value: unknown): void {
  stream.write(`${JSON.stringify(value, null, 2)}\n`);
}

export function formatTime(epochMs: number | null | undefined): string {
  return epochMs
    ? new Date(epochMs)
        .toISOString()
        .replace('T', ' ')
        .replace(/\.\d+Z$/, 'Z')
    : '-';
}

/** The innermost reason a request got no answer: a system error code (ECONNREFUSED, ENOTFOUND) or a message. */
function networkReason(error: unknown): string {
  let reason = error instanceof Error ? error.message : String(error);
  for (
    let current = error as { cause?: unknown; code?: unknown; message?: unknown } | undefined;
    current;
    current = current.cause as typeof current
  ) {
    if (typeof current.code === 'string' && /^E[A-Z]+$/.test(current.code)) return current.code;
    if (typeof current.message === 'string' && current.message) reason = current.message;
  }
  return reason;
}

/** fetch's own failure (no HTTP answer at all), as the event stream meets it outside the tRPC client. */
const isFetchFailure = (error: unknown) => error instanceof TypeError && error.message === 'fetch failed';

const urlAdvice = {
  flag: 'the address --url gave: is the service running there?',
  env: 'the address in BULLPEN_URL: is the service running there? (--url overrides it)',
  default: 'the default address, as neither BULLPEN_URL nor --url is set: set BULLPEN_URL or pass --url',
};

function unreachable(error: unknown, config: Pick<CliConfig, 'url' | 'urlSource'>) {
  const reason = networkReason(error);
  const text = `cannot reach the Bullpen service at ${config.url} (${reason}); that is ${urlAdvice[config.urlSource ?? 'default']}`;
  return { text, json: { message: text, code: 'NETWORK_ERROR', url: config.url, reason } };
}

/** The one line (or JSON object) a failed command leaves on stderr: the server's message and code. */
export function describeFailure(
  error: unknown,
  config: Pick<CliConfig, 'url' | 'urlSource'>,
): { text: string; json: Record<string, unknown> } {
  if (isFetchFailure(error)) return unreachable(error, config);
  if (isBullpenError(error)) {
    if (error.code === 'NETWORK_ERROR') return unreachable(error, config);
    const extra = Object.entries(error.details)
      .map(([key, value]) => ` ${key}=${JSON.stringify(value)}`)
      .join('');
    const issues = (error.issues ?? [])
      .map((issue) => `\n  ${issue.path.join('.') || '(input)'}: ${issue.message}`)
      .join('');
    return {
      text: `${error.message} (${error.code}, HTTP ${error.status})${extra}${issues}${confirmHint(error)}`,
      json: {
        message: error.message,
        code: error.code,
        status: error.status,
        ...error.details,
        ...(error.issues ? { issues: error.issues } : {}),
      },
    };
  }
  // The event stream answers before any tRPC call: its errors carry code and status as plain fields.
  const message = error instanceof Error ? error.message : String(error);
  const { code, status } = (error ?? {}) as { code?: unknown; status?: unknown };
  if (typeof code === 'string' && typeof status === 'number') {
    return { text: `${message} (${code}, HTTP ${status})`, json: { message, code, status } };
  }
  return { text: message, json: { message } };
}

/** A `confirm` connection's refusal names the `confirmName` to send; the CLI sends it with `--confirm`. */
function confirmHint(error: BullpenError): string {
  const name = error.details.confirmName;
  return error.code === 'CONNECTION_PROTECTED' && typeof name === 'string'
    ? `\n  to confirm, run it again with --confirm ${shellWord(name)}`
    : '';
}

/** A name as a shell word: bare when it is plain, else single-quoted. */
export function shellWord(name: string): string {
  return /^[\w.:@/+-]+$/.test(name) ? name : `'${name.replaceAll("'", `'\\''`)}'`;
}
