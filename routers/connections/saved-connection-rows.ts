import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { Connection, isSavedConnectionId, type ConnectionRow } from '../../server/persistence/entities/connection.js';
import type { EntityManager } from '../../server/persistence/orm.js';
import { AppError } from '../../contracts/app-error.js';
import { assertConnectionVisible } from '../../server/stores/ownership.js';

/**
 * Row-level helpers for saved connections. The default is moved with native
 * updates in a fixed order (clear the old one, then set the new one) because
 * a partial unique index allows one default per organization at any moment.
 */

export async function findOwnedRow(em: EntityManager, organizationId: string, id: string): Promise<ConnectionRow> {
  const row = isSavedConnectionId(id) ? await em.findOne(Connection, { id }) : null;
  return assertConnectionVisible(row, (found) => found.organization.id, organizationId, id);
}

export async function assertNameFree(
  em: EntityManager,
  organizationId: string,
  name: string,
  exceptId?: string,
): Promise<void> {
  const clash = await em.findOne(Connection, {
    organization: organizationId,
    name,
    ...(exceptId ? { id: { $ne: exceptId } } : {}),
  });
  if (clash) throw duplicateName(name);
}

export async function makeDefault(em: EntityManager, organizationId: string, id: string): Promise<void> {
  await em.nativeUpdate(
    Connection,
    { organization: organizationId, isDefault: true, id: { $ne: id } },
    { isDefault: false },
  );
  await em.nativeUpdate(Connection, { id }, { isDefault: true });
}

/** Makes the oldest connection other than `exceptId` the default; returns its id (null when none is left). */
export async function promoteOldest(
  em: EntityManager,
  organizationId: string,
  exceptId: string,
): Promise<string | null> {
  const [next] = await em.find(
    Connection,
    { organization: organizationId, id: { $ne: exceptId } },
    { orderBy: { createdAt: 'asc', id: 'asc' }, limit: 1 },
  );
  if (!next) return null;
  await em.nativeUpdate(Connection, { id: exceptId }, { isDefault: false });
  await makeDefault(em, organizationId, next.id);
  return next.id;
}

export function duplicateName(name: string): AppError {
  return new AppError('CONFLICT', `A connection named "${name}" already exists in this organization`, {
    field: 'name',
  });
}

/** A unique index lost a race with a concurrent write: still a 409, not a 500. */
export function translateUniqueViolation(error: unknown, name: string): unknown {
  if (!(error instanceof UniqueConstraintViolationException)) return error;
  if (/name_unique/.test(error.message)) return duplicateName(name);
  return new AppError('CONFLICT', 'The default connection changed concurrently; retry the request');
}
