import { loadOnce } from '../load-once.js';

/**
 * The parts of the MCP SDK the endpoint uses, imported on the first MCP
 * request: the SDK brings hono, ajv and its transports (megabytes of heap)
 * that a service nobody points an agent at never needs. One JSON Schema
 * validator is shared by every request's server (the SDK would build an Ajv
 * instance per server; the endpoint never asks a client for input anyway).
 */
export const loadMcpSdk = loadOnce(async () => {
  const [server, transport, types, ajv] = await Promise.all([
    import('@modelcontextprotocol/sdk/server/index.js'),
    import('@modelcontextprotocol/sdk/server/streamableHttp.js'),
    import('@modelcontextprotocol/sdk/types.js'),
    import('@modelcontextprotocol/sdk/validation/ajv'),
  ]);
  return {
    Server: server.Server,
    StreamableHTTPServerTransport: transport.StreamableHTTPServerTransport,
    ListToolsRequestSchema: types.ListToolsRequestSchema,
    CallToolRequestSchema: types.CallToolRequestSchema,
    McpError: types.McpError,
    ErrorCode: types.ErrorCode,
    validator: new ajv.AjvJsonSchemaValidator(),
  };
});

export type McpSdk = Awaited<ReturnType<typeof loadMcpSdk>>;
