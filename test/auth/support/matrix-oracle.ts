import {
  minimumRoleByPermission,
  roleOrder,
  storeChangeByPermission,
  type Permission,
} from '../../../contracts/permissions.js';
import type { ConnectionProtection } from '../../../contracts/protection.js';
import type { Role } from '../../../contracts/system.js';
import type { MatrixRoute } from './matrix-routes.js';
import type { Caller } from './matrix-world.js';

export const inputVariants = ['documented', 'dryRun', 'unknownField', 'confirmNameCase', 'confirmNameMissing'] as const;
export type InputVariant = (typeof inputVariants)[number];

/** What the router says of a procedure, read from its meta and input schema. */
export interface ProcedureFacts {
  name: string;
  permission: Permission;
  sessionOnly: boolean;
  /** Under `/c/{connectionId}`: the connection's protection applies. */
  onConnection: boolean;
  /** Under `/organizations/{organizationId}`: the call acts in that organization. */
  inOrganizationPath: boolean;
  /** Under a `{queueName}`: a confirmation names the queue, else the connection. */
  onQueue: boolean;
  /** `meta.confirm`: confirmName always required (purge, obliterate, delete). */
  alwaysConfirms: boolean;
  takesDryRun: boolean;
  takesConfirmName: boolean;
  confirmNameRequired: boolean;
}

export interface CaseShape {
  facts: ProcedureFacts;
  route: MatrixRoute;
  caller: Caller;
  protection: ConnectionProtection;
  variant: InputVariant;
  /** `mcp`: the procedure as a tool of `/api/mcp`, which takes API tokens only and has no session-only tools. */
  transport?: string;
}

export type Expectation =
  | { refused: true; statuses: number[]; codes: string[]; why: string }
  | { refused: false; statuses: number[]; dry: boolean; why: string };

const refuse = (why: string, statuses: number[], codes: string[]): Expectation => ({
  refused: true,
  statuses,
  codes,
  why,
});
/**
 * A target in A, asked for from outside: 403/404. Routes under
 * `/c/{connectionId}` and `/organizations/{organizationId}` decide that before
 * reading the input; the others look their target up once the input is
 * parsed, so a bad input may be refused first (400): a refusal all the same.
 */
function outOfReach(facts: ProcedureFacts, variant: InputVariant): Expectation {
  const decidedFirst = facts.onConnection || facts.inOrganizationPath;
  const badInput =
    variant === 'unknownField' ||
    (variant === 'dryRun' && !facts.takesDryRun) ||
    (variant === 'confirmNameCase' && !facts.takesConfirmName);
  return decidedFirst || !badInput
    ? refuse('A is out of reach', [403, 404], ['FORBIDDEN', 'NOT_FOUND'])
    : refuse(
        'A is out of reach (bad input refused first)',
        [400, 403, 404],
        ['UNKNOWN_FIELD', 'FORBIDDEN', 'NOT_FOUND'],
      );
}

const atLeast = (role: Role, least: Role) => roleOrder.indexOf(role) >= roleOrder.indexOf(least);

/**
 * The documented answer to a case, from the permission table, the
 * protection rules and the route's own rules: refused (and then nothing may
 * change) or allowed (then it answers 2xx; a dry run changes nothing either).
 */
export function expectedAnswer({ facts, route, caller, protection, variant, transport }: CaseShape): Expectation {
  if (transport === 'mcp' && !caller.isToken)
    return refuse('the MCP endpoint takes API tokens only', [401], ['UNAUTHORIZED']);
  if (transport === 'mcp' && facts.sessionOnly)
    return refuse('a session-only procedure is no tool', [404], ['UNKNOWN_TOOL']);
  const role = caller.actsIn === 'A' || route.reach === 'membership' ? caller.roleInA : null;
  if (!role) return outOfReach(facts, variant);
  if (!atLeast(role, minimumRoleByPermission[facts.permission]))
    return refuse(`${role} is below ${facts.permission}`, [403], ['FORBIDDEN']);
  if (facts.sessionOnly && caller.isToken) return refuse('tokens may not', [403], ['FORBIDDEN']);
  if (caller.readOnly) return refuse('a read-scoped token changes nothing', [403], ['FORBIDDEN']);
  const unknown = refuse('a field the route does not take', [400], ['UNKNOWN_FIELD']);
  if (variant === 'unknownField') return unknown;
  if (variant === 'dryRun' && !facts.takesDryRun) return unknown;
  if ((variant === 'confirmNameCase' || variant === 'confirmNameMissing') && !facts.takesConfirmName) {
    return variant === 'confirmNameCase'
      ? unknown
      : judgeProtection({ facts, route, caller, protection, variant: 'documented' }, role);
  }
  if (variant === 'confirmNameMissing' && facts.confirmNameRequired)
    return refuse('confirmName is required', [400], ['VALIDATION_FAILED']);
  return judgeProtection({ facts, route, caller, protection, variant }, role);
}

function judgeProtection({ facts, route, protection, variant }: CaseShape, role: Role): Expectation {
  const dry = variant === 'dryRun' && facts.takesDryRun;
  const change = storeChangeByPermission[facts.permission];
  const wrongName = variant === 'confirmNameCase' || variant === 'confirmNameMissing';
  if (facts.onConnection && !dry && change !== 'none') {
    const protectedRefusal = refuse(`${protection} protection`, [403], ['CONNECTION_PROTECTED']);
    if (protection === 'read-only') return protectedRefusal;
    if (protection === 'admin' && change === 'destroy' && !atLeast(role, 'admin')) return protectedRefusal;
    if (protection === 'confirm' && change === 'destroy' && wrongName) return protectedRefusal;
  }
  if (variant === 'confirmNameCase' || (variant === 'confirmNameMissing' && facts.alwaysConfirms)) {
    return refuse('a confirmation that is not exactly the name', [400], ['CONFIRMATION_MISMATCH']);
  }
  if (route.instanceOwnerOnly && role !== 'owner') return refuse('only an instance owner may', [403], ['FORBIDDEN']);
  if (route.ownOrAdmin && !atLeast(role, 'admin')) return refuse("another's, below admin", [403], ['FORBIDDEN']);
  return {
    refused: false,
    statuses: [200, 201, 202, ...(route.alsoAllowed ?? [])],
    dry,
    why: dry ? 'a dry run' : 'allowed',
  };
}
