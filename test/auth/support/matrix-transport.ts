import { errorStatusByCode, type ErrorCode } from '../../../contracts/error-codes.js';
import { request } from '../../helpers/app.js';

export const transports = ['rest', 'trpc', 'trpc-batch', 'mcp'] as const;
export type Transport = (typeof transports)[number];

export interface Answer {
  status: number;
  code: string | undefined;
  body: unknown;
}

export interface RouteCall {
  api: string;
  procedure: string;
  method: string;
  /** OpenAPI path with `{param}` placeholders. */
  path: string;
  input: Record<string, unknown>;
  headers: Record<string, string>;
}

/** REST: path parameters in the path, the rest in the JSON body (a DELETE's too: the service merges it under the query). */
function restCall(call: RouteCall): Promise<{ status: number; body: any }> {
  const body = { ...call.input };
  const path = call.path.replace(/\{(\w+)\}/g, (_match, name: string) => {
    const value = String(body[name]);
    delete body[name];
    return encodeURIComponent(value);
  });
  return request(`${call.api}${path}`, { method: call.method, headers: call.headers, body });
}

const mcpHeaders = { accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' };

/**
 * MCP: one JSON-RPC `tools/call` to `/api/mcp` (stateless, so no session to
 * open first). A tool's error result carries the REST error body, whose code
 * gives the status REST would answer; an HTTP refusal (401) is itself; an
 * unknown tool (a JSON-RPC error) is `UNKNOWN_TOOL`, 404.
 */
async function mcpCall(call: RouteCall): Promise<Answer> {
  const message = {
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name: call.procedure.replaceAll('.', '_'), arguments: call.input },
  };
  const { status, body } = await request(`${call.api}/mcp`, {
    method: 'POST',
    headers: { ...call.headers, ...mcpHeaders },
    body: message,
  });
  if (status !== 200) return { status, code: body?.code, body };
  if (body?.error)
    return {
      status: 404,
      code: /Unknown tool/.test(body.error.message) ? 'UNKNOWN_TOOL' : `JSON-RPC ${body.error.code}`,
      body,
    };
  if (!body?.result?.isError) return { status: 200, code: undefined, body };
  const error = JSON.parse(body.result.content[0].text) as { code: ErrorCode };
  return { status: errorStatusByCode[error.code] ?? 500, code: error.code, body: error };
}

/** The same call over each transport, answered as one shape: HTTP status (a batch: its item's) and error code. */
export async function callRoute(transport: Transport, call: RouteCall): Promise<Answer> {
  if (transport === 'mcp') return mcpCall(call);
  if (transport === 'rest') {
    const { status, body } = await restCall(call);
    return { status, code: status >= 400 ? body?.code : undefined, body };
  }
  const url = `${call.api}/trpc/${call.procedure}`;
  if (transport === 'trpc') {
    const { status, body } = await request(url, { method: 'POST', headers: call.headers, body: call.input });
    return { status, code: body?.error?.data?.code, body };
  }
  const { status, body } = await request(`${url}?batch=1`, {
    method: 'POST',
    headers: call.headers,
    body: { 0: call.input },
  });
  const item = Array.isArray(body) ? body[0] : undefined;
  if (!item) return { status, code: undefined, body };
  return { status: item.error ? item.error.data?.httpStatus : 200, code: item.error?.data?.code, body: item };
}
