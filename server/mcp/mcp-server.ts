import type { TRPCError } from '@trpc/server';
import type { Actor } from '../auth/actor.js';
import type { Context } from '../trpc/context.js';
import { callTool } from './call-tool.js';
import type { McpSdk } from './mcp-sdk.js';
import { toolsFor, type ProcedureTool } from './procedure-tools.js';

export interface AgentTools {
  all: readonly ProcedureTool[];
  byName: ReadonlyMap<string, ProcedureTool>;
}

const instructions =
  'Bullpen administers BullMQ job queues in Redis stores. Each tool is one procedure of its REST API (the description names the route), ' +
  'under the same rules: your token’s role and organization, connection protection, confirmations, rate limits, and an audit event for every change. ' +
  'Start with connections_list, then queues_list and queues_get; jobs_failures groups failed jobs by reason. A `connectionId` may be the connection’s name. ' +
  'Destructive tools need `confirmName` (the queue’s name); give every change a `reason`. Errors are the REST error body: `{ message, code, … }`.';

export interface AgentServerOptions {
  sdk: McpSdk;
  version: string;
  tools: AgentTools;
  /** The request's context (transport `mcp`) and who it acts as. */
  ctx: Context;
  actor: Actor;
  onError(error: TRPCError, path: string): void;
}

/**
 * The MCP server of one HTTP request (stateless: the SDK's transport serves
 * one request, so each gets a server bound to its caller). `tools/list`
 * shows the tools the actor may use; `tools/call` runs any tool by name
 * through its procedure, which decides.
 */
export function agentServer({ sdk, version, tools, ctx, actor, onError }: AgentServerOptions) {
  const server = new sdk.Server(
    { name: 'bullpen', version },
    { capabilities: { tools: { listChanged: false } }, instructions, jsonSchemaValidator: sdk.validator },
  );
  server.setRequestHandler(sdk.ListToolsRequestSchema, () => ({
    tools: toolsFor(tools.all, actor).map((tool) => tool.definition),
  }));
  server.setRequestHandler(sdk.CallToolRequestSchema, async (request) => {
    const tool = tools.byName.get(request.params.name);
    if (!tool)
      throw new sdk.McpError(
        sdk.ErrorCode.InvalidParams,
        `Unknown tool "${request.params.name}"; tools/list names them`,
      );
    return callTool({ tool, args: request.params.arguments ?? {}, ctx, onError });
  });
  return server;
}
