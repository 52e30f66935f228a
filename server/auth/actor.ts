import type { Role } from '../../contracts/system.js';

/** Who is making a request, in which organization, with which role. */
export interface Actor {
  /** `internal`: in-process tooling acting as the instance organization's owner (createBullpen's `{ system: true }`). */
  kind: 'authless' | 'user' | 'token' | 'internal';
  /** null in authless mode, where nobody signed in. */
  userId: string | null;
  tokenId: string | null;
  organizationId: string;
  role: Role;
}

/** Who authless requests act as: nobody signed in, shown as the local organization's owner. */
export const authlessUser = { id: 'authless', name: 'Local owner', email: null } as const;
