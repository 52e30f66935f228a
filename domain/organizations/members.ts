import { randomUUID } from 'node:crypto';
import type { MemberView } from '../../contracts/organizations.js';
import type { Role } from '../../contracts/system.js';
import { Membership, type MembershipRecord } from '../../server/persistence/entities/membership.js';
import { User, type UserRecord } from '../../server/persistence/entities/user.js';
import type { EntityManager } from '../../server/persistence/orm.js';
import { normalizeEmail } from '../auth/views.js';
import { AppError } from '../errors.js';

function memberView(membership: MembershipRecord, user: UserRecord): MemberView {
  return { userId: user.id, email: user.email, name: user.name, role: membership.role, joinedAt: membership.createdAt.toISOString() };
}

export async function listMembers(input: { em: EntityManager; organizationId: string }): Promise<{ members: MemberView[] }> {
  const { em, organizationId } = input;
  const memberships = await em.find(Membership, { organizationId }, { orderBy: { createdAt: 'asc', id: 'asc' } });
  const users = new Map((await em.find(User, { id: { $in: memberships.map((membership) => membership.userId) } })).map((user) => [user.id, user]));
  return {
    members: memberships.flatMap((membership) => {
      const user = users.get(membership.userId);
      return user ? [memberView(membership, user)] : [];
    }),
  };
}

/** Adds an existing user (by email) to the organization. */
export async function addMember(input: { em: EntityManager; organizationId: string; email: string; role: Role }): Promise<MemberView> {
  const { em, organizationId } = input;
  const user = await em.findOne(User, { email: normalizeEmail(input.email) });
  if (!user) throw new AppError('NOT_FOUND', `No user has the email ${input.email}; they must sign up first`);
  if (await em.count(Membership, { organizationId, userId: user.id })) {
    throw new AppError('CONFLICT', `${user.email} is already a member of this organization`);
  }
  const membership = em.create(Membership, { id: randomUUID(), organizationId, userId: user.id, role: input.role, createdAt: new Date() });
  await em.flush();
  return memberView(membership, user);
}

async function findMember(em: EntityManager, organizationId: string, userId: string): Promise<MembershipRecord> {
  const membership = await em.findOne(Membership, { organizationId, userId });
  if (!membership) throw new AppError('NOT_FOUND', `User ${userId} is not a member of this organization`);
  return membership;
}

/** An organization always keeps an owner: its last one can be neither demoted nor removed. */
async function ensureNotLastOwner(em: EntityManager, membership: MembershipRecord, action: string): Promise<void> {
  if (membership.role !== 'owner') return;
  if ((await em.count(Membership, { organizationId: membership.organizationId, role: 'owner' })) <= 1) {
    throw new AppError('LAST_OWNER', `Cannot ${action} the last owner of the organization; make someone else owner first`);
  }
}

export async function changeMemberRole(input: { em: EntityManager; organizationId: string; userId: string; role: Role }): Promise<MemberView> {
  const { em } = input;
  const membership = await findMember(em, input.organizationId, input.userId);
  if (input.role !== 'owner') await ensureNotLastOwner(em, membership, 'demote');
  membership.role = input.role;
  await em.flush();
  return memberView(membership, await em.findOneOrFail(User, { id: membership.userId }));
}

export async function removeMember(input: { em: EntityManager; organizationId: string; userId: string }): Promise<{ success: true; removed: number }> {
  const { em } = input;
  const membership = await findMember(em, input.organizationId, input.userId);
  await ensureNotLastOwner(em, membership, 'remove');
  await em.remove(membership).flush();
  return { success: true, removed: 1 };
}
