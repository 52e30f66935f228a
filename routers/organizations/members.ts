import type { MemberView } from '../../contracts/organizations.js';
import type { Role } from '../../contracts/system.js';
import { Membership, type MembershipRecord } from '../../server/persistence/entities/membership.js';
import { User, type UserRecord } from '../../server/persistence/entities/user.js';
import type { EntityManager } from '../../server/persistence/orm.js';
import { AppError } from '../../contracts/app-error.js';
import { LockMode } from '@mikro-orm/core';
import { ApiToken } from '../../server/persistence/entities/api-token.js';
import { Session } from '../../server/persistence/entities/session.js';
import { onlyWinner } from '../../server/persistence/only-winner.js';

function memberView(membership: MembershipRecord, user: UserRecord): MemberView {
  return {
    userId: user.id,
    email: user.email,
    name: user.name,
    role: membership.role,
    joinedAt: membership.createdAt.toISOString(),
  };
}

export async function listMembers(input: {
  em: EntityManager;
  organizationId: string;
}): Promise<{ members: MemberView[] }> {
  const { em, organizationId } = input;
  const memberships = await em.find(Membership, { organizationId }, { orderBy: { createdAt: 'asc', id: 'asc' } });
  const users = new Map(
    (await em.find(User, { id: { $in: memberships.map((membership) => membership.userId) } })).map((user) => [
      user.id,
      user,
    ]),
  );
  return {
    members: memberships.flatMap((membership) => {
      const user = users.get(membership.userId);
      return user ? [memberView(membership, user)] : [];
    }),
  };
}

async function findMember(em: EntityManager, organizationId: string, userId: string): Promise<MembershipRecord> {
  const membership = await em.findOne(Membership, { organizationId, userId });
  if (!membership) throw notMember(userId);
  return membership;
}

const notMember = (userId: string) => new AppError('NOT_FOUND', `User ${userId} is not a member of this organization`);

/**
 * An organization always keeps an owner: its last one can be neither demoted
 * nor removed. Runs inside the caller's transaction, holding the
 * organization's owner rows locked (PostgreSQL `FOR UPDATE`; SQLite runs one
 * transaction at a time), so of two owners demoting or removing each other at
 * once, on any number of replicas, the second sees the first's change and is refused.
 */
async function ensureNotLastOwner(tx: EntityManager, membership: MembershipRecord, action: string): Promise<void> {
  if (membership.role !== 'owner') return;
  const owners = await lockOwners(tx, membership.organizationId);
  if (!owners.includes(membership.userId)) return;
  if (owners.length <= 1) {
    throw new AppError(
      'LAST_OWNER',
      `Cannot ${action} the last owner of the organization; make someone else owner first`,
    );
  }
}

async function lockOwners(tx: EntityManager, organizationId: string): Promise<string[]> {
  const postgres = tx.getPlatform().constructor.name === 'PostgreSqlPlatform';
  const rows = await tx
    .createQueryBuilder(Membership)
    .select('userId')
    .where({ organizationId, role: 'owner' })
    .setLockMode(postgres ? LockMode.PESSIMISTIC_WRITE : undefined)
    .execute<Array<{ userId: string }>>('all');
  return rows.map((row) => row.userId);
}

export async function changeMemberRole(input: {
  em: EntityManager;
  organizationId: string;
  userId: string;
  role: Role;
}): Promise<MemberView> {
  const { organizationId, userId } = input;
  const membership = await input.em.transactional(async (tx) => {
    if (input.role !== 'owner') await ensureNotLastOwner(tx, await findMember(tx, organizationId, userId), 'demote');
    await onlyWinner(tx.nativeUpdate(Membership, { organizationId, userId }, { role: input.role }), () =>
      notMember(userId),
    );
    return findMember(tx, organizationId, userId);
  });
  return memberView(membership, await input.em.findOneOrFail(User, { id: membership.userId }));
}

/**
 * Removal is final: the member's API tokens in the organization are deleted
 * and their sessions stop pointing at it, so adding them back later restores
 * nothing. Of racing removals only the one that deleted the row succeeds.
 */
export async function removeMember(input: {
  em: EntityManager;
  organizationId: string;
  userId: string;
}): Promise<{ success: true; removed: number }> {
  const { organizationId, userId } = input;
  await input.em.transactional(async (tx) => {
    await ensureNotLastOwner(tx, await findMember(tx, organizationId, userId), 'remove');
    await onlyWinner(tx.nativeDelete(Membership, { organizationId, userId }), () => notMember(userId));
    await tx.nativeDelete(ApiToken, { organizationId, createdByUserId: userId });
    await tx.nativeUpdate(Session, { userId, activeOrganizationId: organizationId }, { activeOrganizationId: null });
  });
  return { success: true, removed: 1 };
}
