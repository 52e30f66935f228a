import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { TestApp } from './app.js';

/** The SDK's own client connected to the service's `/api/mcp` over HTTP, with these headers (e.g. a bearer token). */
export async function connectAgent(app: TestApp, headers: Record<string, string>): Promise<Client> {
  const client = new Client({ name: 'bullpen-test-agent', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${app.api}/mcp`), { requestInit: { headers } }));
  return client;
}

/** A tool result's text as the error body it carries (`{ message, code, … }`), or the data it returned. */
export function toolJson(result: Awaited<ReturnType<Client['callTool']>>): any {
  const [first] = result.content as Array<{ type: string; text?: string }>;
  return JSON.parse(first?.text ?? 'null');
}
