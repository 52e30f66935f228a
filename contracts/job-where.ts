import { z } from 'zod';

/**
 * Structured search over a job's fields: `data.customer.id:42 data.items[].sku:"AB C" opts.priority>5`.
 *
 *   where    = term { spaces term }             every term must hold (at most 10)
 *   term     = path operator value
 *   path     = root { "." key | "[]" | "[" digits "]" }
 *   operator = ":" equals | "~" contains (any case) | ">" | ">=" | "<" | "<=" (numbers)
 *   value    = a word without spaces or quotes | "a JSON string"
 *
 * One small grammar, parsed here so a bad term is a 400 naming `where` before anything is read.
 */

/** Where a path starts: the job's JSON fields (which have fields of their own) and its scalars. */
export const whereJsonRoots = ['data', 'opts', 'returnvalue', 'progress'] as const;
export const whereScalarRoots = [
  'id',
  'name',
  'failedReason',
  'attemptsMade',
  'timestamp',
  'processedOn',
  'finishedOn',
  'delay',
  'priority',
] as const;
export type WhereRoot = (typeof whereJsonRoots)[number] | (typeof whereScalarRoots)[number];
const roots: readonly string[] = [...whereJsonRoots, ...whereScalarRoots];

export const whereOperators = [':', '~', '>', '>=', '<', '<='] as const;
export type WhereOperator = (typeof whereOperators)[number];

export type WhereStep = { key: string } | { index: number } | { each: true };

export interface WhereTerm {
  /** The term as written, for messages. */
  text: string;
  root: WhereRoot;
  steps: WhereStep[];
  operator: WhereOperator;
  value: string;
  /** A "quoted" value is text only; a bare one may be a number, true, false or null. */
  quoted: boolean;
}

export const maxWhereTerms = 10;
const maxSteps = 20;
/** Characters a bare key or value may not hold: what separates or quotes. */
const special = new Set([':', '~', '<', '>', '.', '[', ']', '"']);
const isSpace = (char: string | undefined) => char !== undefined && /\s/.test(char);

class WhereSyntaxError extends Error {}

/** Reads the terms of a `where` text, or throws a message saying what is wrong and where. */
class Reader {
  at = 0;
  constructor(readonly text: string) {}

  fail(message: string): never {
    throw new WhereSyntaxError(`${message} (at character ${this.at + 1})`);
  }

  word(stopAtSpecial: boolean): string {
    const start = this.at;
    while (
      this.at < this.text.length &&
      !isSpace(this.text[this.at]) &&
      !(stopAtSpecial && special.has(this.text[this.at]!))
    )
      this.at++;
    return this.text.slice(start, this.at);
  }

  quoted(): string {
    const start = this.at;
    for (this.at++; this.at < this.text.length && this.text[this.at] !== '"'; this.at++)
      if (this.text[this.at] === '\\') this.at++;
    if (this.at >= this.text.length) this.fail('a quoted value is not closed');
    this.at++;
    try {
      return JSON.parse(this.text.slice(start, this.at)) as string;
    } catch {
      this.at = start;
      return this.fail('a quoted value takes JSON escapes only (\\" \\\\ \\n \\u00e9 …)');
    }
  }

  step(): WhereStep | undefined {
    const char = this.text[this.at];
    if (char === '.') {
      this.at++;
      const key = this.text[this.at] === '"' ? this.quoted() : this.word(true);
      return key === '' ? this.fail('expected a field name after "."') : { key };
    }
    if (char !== '[') return undefined;
    const index = /^\[(\d{0,9})\]/.exec(this.text.slice(this.at));
    if (!index) this.fail('expected "[]" (every element) or "[n]" (element n)');
    this.at += index[0].length;
    return index[1] === '' ? { each: true } : { index: Number(index[1]) };
  }

  operator(): WhereOperator {
    const two = this.text.slice(this.at, this.at + 2);
    const found =
      two === '>=' || two === '<='
        ? two
        : (whereOperators as readonly string[]).includes(this.text[this.at] ?? '')
          ? this.text[this.at]
          : undefined;
    if (!found) this.fail('expected one of : (equals), ~ (contains), >, >=, <, <= after the path');
    this.at += found.length;
    return found as WhereOperator;
  }

  term(): WhereTerm {
    const start = this.at;
    const root = this.word(true);
    if (!roots.includes(root))
      this.fail(`a path starts with one of ${roots.join(', ')}${root ? `, not "${root}"` : ''}`);
    const steps: WhereStep[] = [];
    for (let step = this.step(); step; step = this.step()) steps.push(step);
    if (steps.length > 0 && !(whereJsonRoots as readonly string[]).includes(root))
      this.fail(`${root} has no fields; only ${whereJsonRoots.join(', ')} do`);
    if (steps.length > maxSteps) this.fail(`a path has at most ${maxSteps} steps`);
    const operator = this.operator();
    const quoted = this.text[this.at] === '"';
    const value = quoted ? this.quoted() : this.word(false);
    if (!quoted && value === '') this.fail(`expected a value after "${operator}"`);
    if (!quoted && value.includes('"')) this.fail('quote a value as a whole ("…")');
    if (operator !== ':' && operator !== '~' && (quoted || !Number.isFinite(Number(value))))
      this.fail(`${operator} compares numbers; ${JSON.stringify(value)} is not one`);
    if (this.at < this.text.length && !isSpace(this.text[this.at])) this.fail('expected a space between terms');
    return { text: this.text.slice(start, this.at), root: root as WhereRoot, steps, operator, value, quoted };
  }
}

/** The terms of a `where` text; throws WhereSyntaxError (a message with the position) when it does not parse. */
export function parseWhere(text: string): WhereTerm[] {
  const reader = new Reader(text);
  const terms: WhereTerm[] = [];
  for (;;) {
    while (isSpace(text[reader.at])) reader.at++;
    if (reader.at >= text.length) break;
    if (terms.length === maxWhereTerms) reader.fail(`at most ${maxWhereTerms} terms`);
    terms.push(reader.term());
  }
  if (terms.length === 0) reader.fail('expected at least one term such as data.customer.id:42');
  return terms;
}

export const whereDescription =
  'Structured match, every term must hold: `path op value` separated by spaces. Paths start at `data`, `opts`, `returnvalue`, `progress` (then `.key`, `[]` every element, `[n]`) ' +
  'or a scalar (`id`, `name`, `failedReason`, `attemptsMade`, `timestamp`, `processedOn`, `finishedOn`, `delay`, `priority`). `:` equals (a bare number also matches the same text; ' +
  '`true`, `false`, `null` as JSON; on an array: any element), `~` contains, any case (objects by their JSON text), `>` `>=` `<` `<=` compare numbers. Quote values with spaces as JSON strings. ' +
  'E.g. `data.customer.id:42 data.items[].sku:"AB 12" opts.priority>5`.';

/** The `where` field of the search route and of the query form: checked by the grammar, 400 naming `where`. */
export const whereField = z
  .string()
  .min(1)
  .max(1000)
  .superRefine((text, check) => {
    try {
      parseWhere(text);
    } catch (error) {
      if (!(error instanceof WhereSyntaxError)) throw error;
      check.addIssue({ code: 'custom', message: error.message });
    }
  })
  .describe(whereDescription);
