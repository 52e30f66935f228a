import type { Role } from '../../contracts/system.js';
import type { TokenScope } from '../../contracts/auth.js';

/** Who is making a request, in which organization, with which role. */
export interface Actor {
  /**
   * `token`: an API token over REST or tRPC; `agent`: the same over the MCP
   * endpoint (`/api/mcp`; in authless mode, with no token); `internal`:
   * in-process tooling acting as the instance organization's owner
   * (createBullpen's `{ system: true }`).
   */
  kind: 'authless' | 'user' | 'token' | 'agent' | 'internal';
  /** null in authless mode, where nobody signed in. */
  userId: string | null;
  tokenId: string | null;
  organizationId: string;
  role: Role;
  /** A token's scope: `read` refuses every mutation (authorize). Absent: not a token, or a full token. */
  tokenScope?: TokenScope;
}

/** Whether the actor presents an API token (over REST, tRPC or MCP) rather than a signed-in session. */
export const actsWithToken = (actor: Pick<Actor, 'kind' | 'tokenId'>): boolean =>
  actor.kind === 'token' || (actor.kind === 'agent' && actor.tokenId !== null);

/** Who authless requests act as: nobody signed in, shown as the local organization's owner. */
export const authlessUser = { id: 'authless', name: 'Local owner', email: null } as const;
