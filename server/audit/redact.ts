import { redactUrlCredentials } from '../secrets/redact-credentials.js';

export const redacted = '[redacted]';

/** Keys whose values are credentials, whatever they look like. `...Id`/`...Ids` keys only name things. */
const secretKey = /(password|passwd|secret|token|authorization|cookie|api[-_]?key|credential)/i;
const identifierKey = /Ids?$/;

const maxStringLength = 1000;
const maxArrayItems = 100;
const maxDepth = 6;

function redactValue(value: unknown, depth: number, cut: boolean): unknown {
  if (typeof value === 'string') {
    const masked = redactUrlCredentials(value);
    return cut && masked.length > maxStringLength
      ? `${masked.slice(0, maxStringLength)}…(${masked.length} chars)`
      : masked;
  }
  if (value === null || typeof value !== 'object') return value;
  if (depth >= maxDepth) return '…(nested too deep)';
  if (Array.isArray(value)) {
    const kept = (cut ? value.slice(0, maxArrayItems) : value).map((item) => redactValue(item, depth + 1, cut));
    return cut && value.length > maxArrayItems ? [...kept, `…(${value.length - maxArrayItems} more)`] : kept;
  }
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [
      key,
      secretKey.test(key) && !identifierKey.test(key) && item !== undefined && item !== null
        ? redacted
        : redactValue(item, depth + 1, cut),
    ]),
  );
}

/**
 * Parameters as the audit trail keeps them: credentials blanked by key,
 * every URL reduced to scheme, host and port (server/secrets/redact-credentials.ts),
 * and big payloads (job data) cut down so one event stays small.
 */
export function redactParameters(value: unknown): unknown {
  return redactValue(value, 0, true);
}

/**
 * Stored parameters on their way out (`GET /api/audit`, the export): redacted
 * again, so rows an older version wrote (destination URLs kept whole) never
 * leave as they were; already cut, so nothing is cut twice.
 */
export function redactStoredParameters(value: unknown): unknown {
  return redactValue(value, 0, false);
}

/**
 * The figures an action's result reports (e.g. `totalRemoved`, `removed`,
 * `succeeded`/`failed`, `removedByStatus`): its top-level numbers and
 * top-level objects of numbers. Null when there are none.
 */
export function resultCounts(result: unknown): Record<string, unknown> | null {
  if (result === null || typeof result !== 'object' || Array.isArray(result)) return null;
  const isNumber = (item: unknown) => typeof item === 'number' && Number.isFinite(item);
  const counts = Object.entries(result).filter(
    ([, item]) =>
      isNumber(item) ||
      (item !== null &&
        typeof item === 'object' &&
        !Array.isArray(item) &&
        Object.values(item).length > 0 &&
        Object.values(item).every(isNumber)),
  );
  return counts.length > 0 ? Object.fromEntries(counts) : null;
}
