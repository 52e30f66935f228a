import { AppError } from '../../contracts/app-error.js';

/** JSON with object keys sorted: two values that mean the same write the same text. */
export function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    item !== null && typeof item === 'object' && !Array.isArray(item)
      ? Object.fromEntries(Object.entries(item).sort(([a], [b]) => a.localeCompare(b)))
      : item,
  );
}

/**
 * The fields a document item states (present, not undefined) whose value differs from what exists:
 * what the document leaves out is left as it is.
 */
export function changedFields<T extends object>(
  stated: T,
  current: T,
  fields: ReadonlyArray<keyof T & string>,
): string[] {
  return fields.filter(
    (field) => stated[field] !== undefined && canonical(stated[field]) !== canonical(current[field]),
  );
}

/** 400 when a document names one thing twice (`what` says where), 409 when this side holds two of one name. */
export function assertUnique(names: string[], what: string): void {
  const seen = new Set<string>();
  for (const name of names) {
    if (seen.has(name))
      throw new AppError('VALIDATION_FAILED', `The document names ${what} "${name}" twice`, { field: 'definitions' });
    seen.add(name);
  }
}

export function ambiguous(what: string, name: string): AppError {
  return new AppError('CONFLICT', `More than one ${what} here is named "${name}": rename one before importing`, {
    field: 'definitions',
  });
}
