import { getTRPCErrorFromUnknown, type TRPCError } from '@trpc/server';
import { AppError } from '../../contracts/app-error.js';
import { callProcedure } from '../trpc/trpc-internals.js';
import type { Context } from '../trpc/context.js';
import { describeError, unknownFieldsError } from '../trpc/errors.js';
import { errorBody } from '../http/error-body.js';
import type { ProcedureTool } from './procedure-tools.js';
import { reasonArgument } from './tool-schemas.js';

/** What `tools/call` answers (the MCP `CallToolResult` shape). */
export interface ToolResult {
  [key: string]: unknown;
  content: Array<{ type: 'text'; text: string }>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

/** The procedure's input from the tool's arguments, and the `reason` a changing tool was given. */
function splitArguments(tool: ProcedureTool, args: Record<string, unknown>): { input: unknown; reason?: string } {
  const { [reasonArgument]: reason, ...rest } = args;
  const given = tool.type === 'mutation' ? reason : undefined;
  const input = tool.type === 'mutation' ? rest : args;
  if (given !== undefined && typeof given !== 'string')
    throw new AppError('VALIDATION_FAILED', `${reasonArgument} must be text`, { field: reasonArgument });
  if (!tool.takesNoInput) return { input, ...(given ? { reason: given } : {}) };
  // As over REST: a tool without input takes no argument at all; one sent is refused, never ignored.
  const unknown = Object.keys(input as object);
  if (unknown.length > 0) throw unknownFieldsError(unknown);
  return { input: undefined, ...(given ? { reason: given } : {}) };
}

/** A refusal or failure as the tool's error result: the REST error body (`message`, `code`, details) as its text. */
function errorResult(error: TRPCError): ToolResult {
  return { isError: true, content: [{ type: 'text', text: JSON.stringify(errorBody(describeError(error))) }] };
}

export interface ToolCall {
  tool: ProcedureTool;
  args: Record<string, unknown>;
  /** The MCP request's context (transport `mcp`): identity, rate limit and audit key off it as for a REST call. */
  ctx: Context;
  /** Called with every failure, as the REST handler's `onError` (5xx logged). */
  onError(error: TRPCError, path: string): void;
}

/**
 * Runs a tool: its procedure, called exactly as the REST handler calls it
 * (callProcedure: the procedure's middleware chain — authentication,
 * organization, rate limit, permission and token scope, audit, connection
 * and its protection, confirmations, reasons — then input validation and the
 * resolver). The result is the procedure's output, as text and as structured
 * content; an error is the REST error body with `isError`.
 */
export async function callTool({ tool, args, ctx, onError }: ToolCall): Promise<ToolResult> {
  try {
    const { input, reason } = splitArguments(tool, args);
    const data = await callProcedure(tool.procedure, {
      ctx: reason === undefined ? ctx : { ...ctx, reason },
      type: tool.type,
      path: tool.path,
      getRawInput: async () => input,
      signal: undefined,
      batchIndex: 0,
    });
    const structured =
      tool.definition.outputSchema && data !== null && typeof data === 'object'
        ? { structuredContent: data as Record<string, unknown> }
        : {};
    return { content: [{ type: 'text', text: JSON.stringify(data ?? null) }], ...structured };
  } catch (cause) {
    const error = getTRPCErrorFromUnknown(cause);
    onError(error, tool.path);
    return errorResult(error);
  }
}
