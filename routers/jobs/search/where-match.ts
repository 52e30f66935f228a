import type { WhereRoot, WhereStep, WhereTerm } from '../../../contracts/job-where.js';
import { parseStoredJson, type JobHash } from '../../../server/bullmq/job-hash.js';

/** The hash fields each root reads (`atm` is BullMQ 6's attemptsMade; older versions wrote the long name). */
const hashFieldsByRoot: Record<Exclude<WhereRoot, 'id'>, string[]> = {
  data: ['data'],
  opts: ['opts'],
  returnvalue: ['returnvalue'],
  progress: ['progress'],
  name: ['name'],
  failedReason: ['failedReason'],
  attemptsMade: ['atm', 'attemptsMade'],
  timestamp: ['timestamp'],
  processedOn: ['processedOn'],
  finishedOn: ['finishedOn'],
  delay: ['delay'],
  priority: ['priority'],
};

/** Every hash field the terms read, each once. */
export function whereHashFields(terms: readonly WhereTerm[]): string[] {
  return [...new Set(terms.flatMap((term) => (term.root === 'id' ? [] : hashFieldsByRoot[term.root])))];
}

/** Decodes a job's stored options as BullMQ does (its short names expanded). */
export type OptsDecoder = (raw: string) => unknown;

const integer = (text: string | undefined) => (text === undefined || text === '' ? undefined : Number(text));

/** A root's value as the job holds it: JSON fields parsed (once per job), scalars as numbers or text. */
function rootValue(
  root: WhereRoot,
  id: string,
  hash: JobHash,
  decodeOpts: OptsDecoder | undefined,
  parsed: Map<WhereRoot, unknown>,
): unknown {
  if (parsed.has(root)) return parsed.get(root);
  let value: unknown;
  if (root === 'id') value = id;
  else if (root === 'name' || root === 'failedReason') value = hash[root];
  else if (root === 'opts')
    value =
      hash.opts === undefined ? undefined : decodeOpts ? decodeOpts(hash.opts) : parseStoredJson(hash.opts, undefined);
  else if (root === 'data' || root === 'returnvalue' || root === 'progress')
    value = parseStoredJson(hash[root], undefined);
  else value = integer(root === 'attemptsMade' ? (hash.atm ?? hash.attemptsMade) : hash[root]);
  parsed.set(root, value);
  return value;
}

/** The values a path reaches: `[]` fans out over an array, and so does a key met on an array of objects. */
function follow(values: unknown[], step: WhereStep): unknown[] {
  const out: unknown[] = [];
  for (const value of values) {
    if ('each' in step) {
      if (Array.isArray(value)) out.push(...value);
    } else if ('index' in step) {
      if (Array.isArray(value) && step.index < value.length) out.push(value[step.index]);
    } else if (Array.isArray(value)) {
      if (/^\d+$/.test(step.key)) {
        if (Number(step.key) < value.length) out.push(value[Number(step.key)]);
      } else out.push(...follow(value, step));
    } else if (value !== null && typeof value === 'object' && Object.hasOwn(value, step.key)) {
      out.push((value as Record<string, unknown>)[step.key]);
    }
  }
  return out;
}

function equals(candidate: unknown, term: WhereTerm): boolean {
  if (Array.isArray(candidate)) return candidate.some((element) => !Array.isArray(element) && equals(element, term));
  if (term.quoted) return candidate === term.value;
  if (term.value === 'true' || term.value === 'false')
    return candidate === (term.value === 'true') || candidate === term.value;
  if (term.value === 'null') return candidate === null || candidate === 'null';
  const number = Number(term.value);
  if (Number.isFinite(number) && typeof candidate === 'number') return candidate === number;
  return candidate === term.value;
}

function contains(candidate: unknown, needle: string): boolean {
  if (candidate === undefined) return false;
  const text = typeof candidate === 'string' ? candidate : JSON.stringify(candidate);
  return text.toLowerCase().includes(needle);
}

function compares(candidate: unknown, term: WhereTerm): boolean {
  if (typeof candidate !== 'number') return false;
  const bound = Number(term.value);
  switch (term.operator) {
    case '>':
      return candidate > bound;
    case '>=':
      return candidate >= bound;
    case '<':
      return candidate < bound;
    default:
      return candidate <= bound;
  }
}

/**
 * Whether a job (its id and the hash fields `whereHashFields` named) meets every term. Parsed JSON
 * is kept per job, so several terms on `data` parse it once.
 */
export function matchesWhere(
  terms: readonly WhereTerm[],
  id: string,
  hash: JobHash,
  decodeOpts?: OptsDecoder,
): boolean {
  const parsed = new Map<WhereRoot, unknown>();
  return terms.every((term) => {
    const reached = term.steps.reduce<unknown[]>(
      (values, step) => follow(values, step),
      [rootValue(term.root, id, hash, decodeOpts, parsed)],
    );
    const needle = term.value.toLowerCase();
    return reached.some((candidate) => {
      if (term.operator === ':') return equals(candidate, term);
      if (term.operator === '~') return contains(candidate, needle);
      return compares(candidate, term);
    });
  });
}
