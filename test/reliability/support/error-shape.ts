import { errorStatusByCode } from '../../../contracts/error-codes.js';
import type { Exchange } from './http-exchange.js';

export interface ProblemRules {
  /** The 503 code a fault test expects (STORE_UNAVAILABLE, DATABASE_UNAVAILABLE); any other status >= 500 stays a problem. */
  unavailableCode?: string;
}

/**
 * What is wrong with an exchange by the suite's rules, or null: no answer, a
 * status of 500 or more, or an error body that is not `{ message, code }`
 * with the status the error table gives that code.
 */
export function exchangeProblem(exchange: Exchange, rules: ProblemRules = {}): string | null {
  if (exchange.error) return exchange.error;
  const expectedOutage =
    exchange.status === 503 &&
    rules.unavailableCode !== undefined &&
    exchange.body.includes(`"code":"${rules.unavailableCode}"`);
  if (exchange.status >= 500 && !expectedOutage) return `status ${exchange.status}: ${exchange.body.slice(0, 200)}`;
  if (exchange.status < 400 || exchange.request.method === 'HEAD') return null;
  let body: { message?: unknown; code?: unknown };
  try {
    body = JSON.parse(exchange.body);
  } catch {
    return `status ${exchange.status} with a body that is not JSON: ${exchange.body.slice(0, 100)}`;
  }
  if (isJsonRpcError(exchange, body)) return null;
  if (typeof body.message !== 'string' || body.message === '' || typeof body.code !== 'string') {
    return `status ${exchange.status} without { message, code }: ${exchange.body.slice(0, 200)}`;
  }
  const expected = errorStatusByCode[body.code as keyof typeof errorStatusByCode];
  if (expected !== exchange.status)
    return `status ${exchange.status} with code ${body.code} (the error table says ${expected})`;
  return null;
}

/**
 * The MCP endpoint is a JSON-RPC channel: a message the SDK cannot take (not JSON-RPC, not JSON) is answered
 * in the protocol's own error shape, `{ jsonrpc, error: { code, message }, id }`, which MCP clients read;
 * what Bullpen refuses itself there (401, 403, 413, 429) keeps `{ message, code }`.
 */
function isJsonRpcError(exchange: Exchange, body: unknown): boolean {
  if (!exchange.request.path.endsWith('/api/mcp') || exchange.status >= 500) return false;
  const error = (body as { jsonrpc?: unknown; error?: { code?: unknown; message?: unknown } }).error;
  return (
    (body as { jsonrpc?: unknown }).jsonrpc === '2.0' &&
    typeof error?.code === 'number' &&
    typeof error.message === 'string'
  );
}

/** One line per problem exchange, for an assertion that lists them all. */
export function listProblems(exchanges: readonly Exchange[], rules: ProblemRules = {}): string[] {
  return exchanges.flatMap((exchange) => {
    const problem = exchangeProblem(exchange, rules);
    return problem
      ? [`${exchange.request.label} [${exchange.request.method} ${exchange.request.path.slice(0, 150)}] → ${problem}`]
      : [];
  });
}
