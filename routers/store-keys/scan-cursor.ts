import { AppError } from '../../contracts/app-error.js';

/**
 * The search cursor: the Redis SCAN cursor, and on a cluster which master it
 * belongs to (`<node>:<cursor>`). `0` starts and ends a search.
 */
export interface ScanPosition {
  node: number;
  cursor: string;
}

export function parseScanCursor(cursor: string, nodeCount: number): ScanPosition {
  const [first, second] = cursor.split(':');
  const position = second === undefined ? { node: 0, cursor: first! } : { node: Number(first), cursor: second };
  if (position.node >= nodeCount)
    throw new AppError('VALIDATION_FAILED', `cursor: "${cursor}" does not belong to this store`);
  return position;
}

export function formatScanCursor(position: ScanPosition | null, nodeCount: number): string {
  if (position === null) return '0';
  return nodeCount > 1 ? `${position.node}:${position.cursor}` : position.cursor;
}
