import type { AnyProcedure, AnyRouter } from '@trpc/server';
import {
  getInputOutputParsers,
  instanceofZodTypeLikeVoid,
  unwrapZodType,
  type OpenApiProcedure,
} from 'trpc-to-openapi';
import {
  minimumRoleByPermission,
  roleAllows,
  storeChangeByPermission,
  type Permission,
} from '../../contracts/permissions.js';
import type { Actor } from '../auth/actor.js';
import type { ProcedureMeta } from '../trpc/init.js';
import { partsOf, proceduresOf, type ProcedureParts } from '../trpc/trpc-internals.js';
import { toolInputSchema, toolOutputSchema, type JsonSchema } from './tool-schemas.js';

/** What `tools/list` shows of a tool (the MCP `Tool` shape). */
export interface ToolDefinition {
  name: string;
  title: string;
  description: string;
  inputSchema: JsonSchema;
  outputSchema?: JsonSchema;
  annotations: {
    title: string;
    readOnlyHint: boolean;
    destructiveHint: boolean;
    idempotentHint: boolean;
    openWorldHint: boolean;
  };
}

/** One procedure as an MCP tool: what is listed, and what calling it runs. */
export interface ProcedureTool {
  definition: ToolDefinition;
  /** The procedure's path in the router (`queues.get`). */
  path: string;
  type: 'query' | 'mutation';
  permission: Permission;
  /** What the procedure is made of, as the REST routes call it (callProcedure). */
  procedure: ProcedureParts;
  /** The procedure takes no input (void): arguments other than `reason` are refused as unknown fields. */
  takesNoInput: boolean;
}

/** `queues.get` → `queues_get`: tool names keep to letters, digits and `_`, which every MCP client accepts. */
export const toolNameOf = (procedurePath: string) => procedurePath.replaceAll('.', '_');

/** The tool's description: the route's own words, then its REST twin, what it needs and what it changes. */
function describeTool(path: string, type: string, meta: ProcedureMeta, permission: Permission): string {
  const { summary = path, description, method, path: restPath } = meta.openapi!;
  const change = storeChangeByPermission[permission];
  const lines = [summary, ...(description && description !== summary ? [description] : [])];
  lines.push(
    `Same as REST ${method} /api${restPath} (procedure ${path}). Permission ${permission}: role ${minimumRoleByPermission[permission]} or above.`,
  );
  if (meta.confirm === 'queue') lines.push('Destructive: send `confirmName` equal to the queue name exactly.');
  else if (change === 'destroy')
    lines.push(
      "Destructive: removes what cannot be brought back; a connection with protection `confirm` asks for `confirmName` (the queue's name, or the connection's on connection-wide tools).",
    );
  if (type === 'mutation') lines.push('Give your `reason`: it is kept in the audit trail.');
  return lines.join('\n\n');
}

function toolOf(path: string, procedure: OpenApiProcedure, meta: ProcedureMeta, permission: Permission): ProcedureTool {
  const parts = partsOf(procedure as unknown as AnyProcedure);
  const type = parts.type as 'query' | 'mutation';
  const { inputParser, outputParser } = getInputOutputParsers(procedure);
  const input = unwrapZodType(inputParser, true);
  const title = meta.openapi!.summary ?? path;
  const change = storeChangeByPermission[permission];
  const outputSchema = toolOutputSchema(outputParser);
  return {
    path,
    type,
    permission,
    procedure: parts,
    takesNoInput: instanceofZodTypeLikeVoid(input),
    definition: {
      name: toolNameOf(path),
      title,
      description: describeTool(path, type, meta, permission),
      inputSchema: toolInputSchema(path, inputParser, type === 'mutation'),
      ...(outputSchema ? { outputSchema } : {}),
      annotations: {
        title,
        readOnlyHint: type === 'query',
        destructiveHint: type === 'mutation' && change === 'destroy',
        idempotentHint: type === 'query',
        openWorldHint: false,
      },
    },
  };
}

/**
 * The MCP tools of a router, one per procedure an API token may call (a
 * declared permission, not session-only): generated from the procedure, so
 * the name, description, input and output are never written twice. Public
 * procedures (health, sign-in…) and session-only ones are not tools. Plain
 * express routes (the event stream, Prometheus) are not procedures and so not tools.
 */
export function procedureTools(router: AnyRouter): ProcedureTool[] {
  const procedures = proceduresOf(router) as unknown as Record<string, OpenApiProcedure>;
  return Object.entries(procedures).flatMap(([path, procedure]) => {
    const { meta, type } = partsOf(procedure as unknown as AnyProcedure);
    if (!meta?.permission || meta.sessionOnly || !meta.openapi || type === 'subscription') return [];
    return [toolOf(path, procedure, meta, meta.permission)];
  });
}

/**
 * The tools `tools/list` shows an actor: those its role allows, and only the
 * reading ones to a read-scoped token. Listing decides nothing: a call to a
 * tool not listed still runs through the procedure, which refuses it (403) and audits it.
 */
export function toolsFor(tools: readonly ProcedureTool[], actor: Actor): ProcedureTool[] {
  return tools.filter(
    (tool) => roleAllows(actor.role, tool.permission) && (tool.type === 'query' || actor.tokenScope !== 'read'),
  );
}
