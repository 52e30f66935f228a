import type { BullMQ } from './bullmq-module.js';

/** Parses JSON text BullMQ wrote; text that is not JSON (a corrupt field) is kept as it is. */
export function parseStoredJson(text: string | undefined, fallback: unknown): unknown {
  if (text === undefined || text === null || text === '') return fallback;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

const integer = (text: string | undefined, fallback: number): number => (text ? Number.parseInt(text, 10) : fallback);
const optionalInteger = (text: string | undefined): number | null => (text ? Number.parseInt(text, 10) : null);

export type JobHash = Partial<Record<string, string>>;

/**
 * The hash fields job summaries read (BullMQ 6 names: `atm` is attemptsMade,
 * older versions wrote `attemptsMade`); lists fetch only these with HMGET,
 * never the options or stack traces.
 */
export const summaryHashFields = [
  'name',
  'progress',
  'failedReason',
  'atm',
  'attemptsMade',
  'delay',
  'priority',
  'timestamp',
  'processedOn',
  'finishedOn',
] as const;

/** The small fields of a job hash, decoded as BullMQ's Job.fromJSON decodes them. */
export function jobScalarsFromHash(hash: JobHash) {
  return {
    name: hash.name ?? '',
    progress: parseStoredJson(hash.progress, 0),
    failedReason: hash.failedReason || null,
    attemptsMade: integer(hash.attemptsMade ?? hash.atm, 0),
    delay: integer(hash.delay, 0),
    priority: integer(hash.priority, 0),
    timestamp: integer(hash.timestamp, 0),
    processedOn: optionalInteger(hash.processedOn),
    finishedOn: optionalInteger(hash.finishedOn),
  };
}

/**
 * Every field of a job hash the detail shows, without building a Job; the
 * options by BullMQ's own decoding (`decodeOpts`: the loaded module's
 * Job.optsFromJSON), which follows its short names as versions add them.
 */
export function decodeJobHash(hash: JobHash, decodeOpts: BullMQ['Job']['optsFromJSON']) {
  const stacktrace = parseStoredJson(hash.stacktrace, []);
  return {
    ...jobScalarsFromHash(hash),
    data: parseStoredJson(hash.data, {}),
    opts: decodeOpts(hash.opts) as Record<string, unknown>,
    attemptsStarted: integer(hash.ats, 0),
    stacktrace: Array.isArray(stacktrace) ? (stacktrace as string[]) : [],
    returnvalue: parseStoredJson(hash.returnvalue, null),
    processedBy: hash.pb || null,
    parentKey: hash.parentKey || undefined,
  };
}
