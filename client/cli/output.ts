import type { Writable } from 'node:stream';
import { isBullpenError, type BullpenError } from '../errors.js';

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
  const widths = headers.map((header, column) => Math.max(header.length, ...cells.map((row) => row[column]?.length ?? 0)));
  const line = (row: string[]) => row.map((text, column) => text.padEnd(widths[column] ?? 0)).join('  ').trimEnd();
  return [line(headers.map((header) => header.toUpperCase())), ...cells.map(line)].join('\n') + '\n';
}

export function writeJson(stream: Writable, value: unknown): void {
  stream.write(`${JSON.stringify(value, null, 2)}\n`);
}

export function formatTime(epochMs: number | null | undefined): string {
  return epochMs ? new Date(epochMs).toISOString().replace('T', ' ').replace(/\.\d+Z$/, 'Z') : '-';
}

/** The one line (or JSON object) a failed command leaves on stderr: the server's message and code. */
export function describeFailure(error: unknown, url: string): { text: string; json: Record<string, unknown> } {
  if (isBullpenError(error)) {
    if (error.code === 'NETWORK_ERROR') {
      return { text: `cannot reach ${url}: ${error.message}`, json: { message: error.message, code: error.code, url } };
    }
    const extra = Object.entries(error.details).map(([key, value]) => ` ${key}=${JSON.stringify(value)}`).join('');
    const issues = (error.issues ?? []).map((issue) => `\n  ${issue.path.join('.') || '(input)'}: ${issue.message}`).join('');
    return {
      text: `${error.message} (${error.code}, HTTP ${error.status})${extra}${issues}${confirmHint(error)}`,
      json: { message: error.message, code: error.code, status: error.status, ...error.details, ...(error.issues ? { issues: error.issues } : {}) },
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
  return error.code === 'CONNECTION_PROTECTED' && typeof name === 'string' ? `\n  to confirm, run it again with --confirm ${shellWord(name)}` : '';
}

/** A name as a shell word: bare when it is plain, else single-quoted. */
export function shellWord(name: string): string {
  return /^[\w.:@/+-]+$/.test(name) ? name : `'${name.replaceAll("'", `'\\''`)}'`;
}
