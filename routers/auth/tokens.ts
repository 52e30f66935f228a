import { randomBytes, randomUUID } from 'node:crypto';
import { roleOrder } from '../../contracts/permissions.js';
import type { CreateTokenInput, CreatedToken, TokenView } from '../../contracts/auth.js';
import type { Actor } from '../../server/auth/actor.js';
import type { SecretHasher } from '../../server/auth/secret-hash.js';
import { ApiToken } from '../../server/persistence/entities/api-token.js';
import type { EntityManager } from '../../server/persistence/orm.js';
import { AppError } from '../../contracts/app-error.js';
import { tokenView } from '../../server/auth/views.js';
import { onlyWinner } from '../../server/persistence/only-winner.js';

export const tokenPrefix = 'bp_';

const rank = (role: Actor['role']) => roleOrder.indexOf(role);

/** Tokens are managed by signed-in users: a leaked token must not be able to mint more. */
function signedInUser(actor: Actor): string {
  if (actor.kind !== 'user' || !actor.userId)
    throw new AppError('FORBIDDEN', 'API tokens are managed by signed-in users, not with a token');
  return actor.userId;
}

export async function createToken(
  input: CreateTokenInput & { em: EntityManager; hash: SecretHasher; actor: Actor },
): Promise<CreatedToken> {
  const userId = signedInUser(input.actor);
  const role = input.role ?? input.actor.role;
  if (rank(role) > rank(input.actor.role)) {
    throw new AppError('FORBIDDEN', `A token cannot have a higher role (${role}) than yours (${input.actor.role})`);
  }
  const expiresAt = input.expiresAt ? new Date(input.expiresAt) : null;
  if (expiresAt && expiresAt.getTime() <= Date.now())
    throw new AppError('VALIDATION_FAILED', 'expiresAt must be in the future');
  const token = `${tokenPrefix}${randomBytes(32).toString('base64url')}`;
  const record = input.em.create(ApiToken, {
    id: randomUUID(),
    organizationId: input.actor.organizationId,
    createdByUserId: userId,
    name: input.name,
    role,
    scope: input.scope ?? 'full',
    tokenHash: input.hash(token),
    expiresAt,
    lastUsedAt: null,
    createdAt: new Date(),
  });
  await input.em.flush();
  return { ...tokenView(record), token };
}

/** Your tokens in the active organization; admins and owners see everyone's there. */
export async function listTokens(input: { em: EntityManager; actor: Actor }): Promise<{ tokens: TokenView[] }> {
  const userId = signedInUser(input.actor);
  const everyone = rank(input.actor.role) >= rank('admin');
  const tokens = await input.em.find(
    ApiToken,
    { organizationId: input.actor.organizationId, ...(everyone ? {} : { createdByUserId: userId }) },
    { orderBy: { createdAt: 'desc', id: 'asc' } },
  );
  return { tokens: tokens.map(tokenView) };
}

/** One of your tokens in the active organization (admins and owners: any of it); never its value. */
export async function getToken(input: { em: EntityManager; actor: Actor; id: string }): Promise<TokenView> {
  const userId = signedInUser(input.actor);
  const everyone = rank(input.actor.role) >= rank('admin');
  const token = await input.em.findOne(ApiToken, {
    id: input.id,
    organizationId: input.actor.organizationId,
    ...(everyone ? {} : { createdByUserId: userId }),
  });
  if (!token) throw new AppError('NOT_FOUND', `Token ${input.id} was not found`);
  return tokenView(token);
}

/** Revokes one of your tokens (admins and owners: any token of the organization). */
export async function revokeToken(input: { em: EntityManager; actor: Actor; id: string }): Promise<{ success: true }> {
  const userId = signedInUser(input.actor);
  const token = await input.em.findOne(ApiToken, { id: input.id, organizationId: input.actor.organizationId });
  if (!token) throw new AppError('NOT_FOUND', `Token ${input.id} was not found`);
  if (token.createdByUserId !== userId && rank(input.actor.role) < rank('admin')) {
    throw new AppError('FORBIDDEN', 'Only admins and owners revoke tokens created by others');
  }
  await onlyWinner(
    input.em.nativeDelete(ApiToken, { id: token.id }),
    () => new AppError('NOT_FOUND', `Token ${input.id} was not found`),
  );
  return { success: true };
}
