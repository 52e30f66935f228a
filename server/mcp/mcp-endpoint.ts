import type { Request, RequestHandler, Response } from 'express';
import type { AnyRouter, TRPCError } from '@trpc/server';
import type { Services } from '../services.js';
import { createHttpContextFactory } from '../trpc/context.js';
import { describeError } from '../trpc/errors.js';
import { sendError, sendErrorDescription } from '../http/error-body.js';
import { acceptJsonAnswers } from './accept-json.js';
import { admitAgent } from './admit-agent.js';
import { loadMcpSdk } from './mcp-sdk.js';
import { agentServer, type AgentTools } from './mcp-server.js';
import { procedureTools } from './procedure-tools.js';

export const mcpPath = '/mcp';

export interface McpEndpointOptions {
  /** The root router: its procedures are the tools. */
  router: AnyRouter;
  services: Services;
  version: string;
  /** Logs a failed tool call as the REST handler logs a failed call. */
  onError(opts: { error: TRPCError; path?: string; req: Request }): void;
}

/**
 * `POST /api/mcp`: the Model Context Protocol over Streamable HTTP,
 * stateless (no session: every request carries its token and is answered
 * as JSON). Its tools are the router's procedures (procedure-tools.ts),
 * generated on the first request; the SDK is loaded then too.
 */
export function mcpEndpoint({ router, services, version, onError }: McpEndpointOptions): RequestHandler {
  let tools: AgentTools | undefined;
  const toolsOnce = () => {
    if (tools) return tools;
    const all = procedureTools(router);
    tools = { all, byName: new Map(all.map((tool) => [tool.definition.name, tool])) };
    return tools;
  };
  const createContext = createHttpContextFactory(services, 'mcp');
  return async (req: Request, res: Response) => {
    const ctx = createContext({ req, res });
    try {
      const actor = await admitAgent(ctx, req.body);
      const sdk = await loadMcpSdk();
      // Tool calls get no `res`: the SDK's transport writes the response, from the moment it starts.
      const toolContext = { ...ctx, res: undefined };
      const server = agentServer({
        sdk,
        version,
        tools: toolsOnce(),
        ctx: toolContext,
        actor,
        onError: (error, path) => onError({ error, path, req }),
      });
      acceptJsonAnswers(req);
      const transport = new sdk.StreamableHTTPServerTransport({ enableJsonResponse: true });
      res.on('close', () => void server.close());
      await server.connect(transport);
      await transport.handleRequest(req, res, req.body);
    } catch (error) {
      const description = describeError(error);
      if (description.httpStatus >= 500)
        ctx.logger.error({ err: error, route: 'mcp', code: description.code }, description.message);
      if (res.headersSent) return void res.end();
      if (description.httpStatus === 401) res.setHeader('WWW-Authenticate', 'Bearer realm="bullpen"');
      sendErrorDescription(res, description);
    }
  };
}

/** GET and DELETE open and end MCP sessions, which a stateless endpoint has none of: 405. */
export function mcpMethodNotAllowed(req: Request, res: Response): void {
  res.setHeader('Allow', 'POST');
  sendError(
    res,
    'METHOD_NOT_ALLOWED',
    `${req.method} is not allowed on /api${mcpPath}: the MCP endpoint is stateless, POST only`,
  );
}
