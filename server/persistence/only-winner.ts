import type { AppError } from '../../contracts/app-error.js';

/**
 * Of racing requests that delete or change the same row, only the one whose
 * statement changed it succeeds (and so records a success audit event); the
 * others get `lost()` (404, or 410 for something already used up). Pass the
 * affected-row count of a conditional native delete/update:
 *
 * @example
 * await onlyWinner(em.nativeDelete(ApiToken, { id }), () => new AppError('NOT_FOUND', 'No such token'));
 */
export async function onlyWinner(changedRows: Promise<number> | number, lost: () => AppError): Promise<void> {
  if ((await changedRows) === 0) throw lost();
}
