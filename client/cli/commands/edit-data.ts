import { readFile } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { UsageError } from '../context.js';

async function readAll(stream: Readable): Promise<string> {
  let text = '';
  for await (const chunk of stream) text += String(chunk);
  return text;
}

/** `--data`: inline JSON, `@file.json`, or `@-` for stdin. */
export async function readDataFlag(value: string, stdin: Readable): Promise<unknown> {
  const text =
    value === '@-'
      ? await readAll(stdin)
      : value.startsWith('@')
        ? await readFile(value.slice(1), 'utf8').catch((error: Error) => {
            throw new UsageError(`--data ${value}: ${error.message}`);
          })
        : value;
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new UsageError(
      `--data ${value.startsWith('@') ? `${value} does not hold` : 'is not'} JSON: ${(error as Error).message}`,
    );
  }
}

/** `path=value`: the value as JSON when it reads as JSON (3, true, null, {"a":1}, "text"), else as the text itself. */
export function parseAssignment(assignment: string): { path: string[]; value: unknown } {
  const equals = assignment.indexOf('=');
  if (equals <= 0) throw new UsageError(`--set takes path=value, got "${assignment}"`);
  const path = assignment.slice(0, equals).split('.');
  if (path.some((key) => key === ''))
    throw new UsageError(`--set: "${assignment.slice(0, equals)}" is not a path such as to or address.city`);
  const text = assignment.slice(equals + 1);
  try {
    return { path, value: JSON.parse(text) };
  } catch {
    return { path, value: text };
  }
}

const isContainer = (value: unknown): value is Record<string, unknown> | unknown[] =>
  typeof value === 'object' && value !== null;

/** A copy of `data` with `value` at `path`, objects made where the path runs out (an array takes a numeric key as an index). */
export function setAtPath(data: unknown, path: string[], value: unknown): unknown {
  const root: unknown = structuredClone(data ?? {});
  if (!isContainer(root))
    throw new UsageError(`--set: the job's data is ${JSON.stringify(root)}, not an object: use --data`);
  let node: Record<string, unknown> | unknown[] = root;
  for (const [at, key] of path.entries()) {
    const last = at === path.length - 1;
    if (Array.isArray(node) && !/^\d+$/.test(key))
      throw new UsageError(`--set ${path.join('.')}: "${key}" is not an index of an array`);
    const slot = node as Record<string, unknown>;
    if (last) slot[key] = value;
    else {
      if (!isContainer(slot[key])) slot[key] = {};
      node = slot[key] as Record<string, unknown>;
    }
  }
  return root;
}
