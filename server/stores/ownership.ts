import { AppError } from '../../contracts/app-error.js';

/**
 * 404 when there is no such connection, 403 when another organization owns
 * it. `ownerId` null: an environment connection, which every organization sees.
 */
export function assertConnectionVisible<T>(
  found: T | null,
  ownerId: (found: T) => string | null,
  organizationId: string,
  connectionId: string,
): T {
  if (!found) throw new AppError('NOT_FOUND', `Connection ${connectionId} was not found`, { connectionId });
  const owner = ownerId(found);
  if (owner !== null && owner !== organizationId) {
    throw new AppError('FORBIDDEN', `Connection ${connectionId} belongs to another organization`, { connectionId });
  }
  return found;
}
