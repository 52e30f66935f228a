import { redactUrlCredentials } from '../secrets/redact-credentials.js';
import type { Context } from '../trpc/context.js';

/** The header a call gives its reason in, over REST, tRPC and MCP (`Bullpen-Reason`; lower case as Node keeps it). */
export const reasonHeader = 'bullpen-reason';

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * A header value as text. HTTP carries bytes and Node reads them as Latin-1;
 * a reason is written by people, in any language, so bytes that form valid
 * UTF-8 (what clients send, see the client's `reasonHeaderValue`) are read as
 * UTF-8, anything else as the Latin-1 it arrived as.
 */
function headerText(value: string): string {
  try {
    return utf8.decode(Buffer.from(value, 'latin1'));
  } catch {
    return value;
  }
}

/**
 * The reason a call gives for itself: an MCP tool's `reason` argument, else
 * the `Bullpen-Reason` header; null when there is none or it is blank. Stored
 * in the call's audit event (cut to its column), required for the changes
 * SERVICE_REQUIRE_REASON names (server/auth/require-reason.ts). A URL in it
 * keeps its scheme, host and port only, as everywhere in the audit trail: a
 * pasted webhook or store URL carries its secret in the rest.
 */
export function callReason(ctx: Pick<Context, 'req' | 'reason'>): string | null {
  const header = ctx.req?.headers[reasonHeader];
  const given = ctx.reason ?? (typeof header === 'string' ? headerText(header) : undefined);
  const trimmed = given?.trim();
  return trimmed ? redactUrlCredentials(trimmed) : null;
}
