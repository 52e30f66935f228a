import { request } from '../../helpers/app.js';

export const transports = ['rest', 'trpc', 'trpc-batch'] as const;
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

/** The same call over each transport, answered as one shape: HTTP status (a batch: its item's) and error code. */
export async function callRoute(transport: Transport, call: RouteCall): Promise<Answer> {
  if (transport === 'rest') {
    const { status, body } = await restCall(call);
    return { status, code: status >= 400 ? body?.code : undefined, body };
  }
  const url = `${call.api}/trpc/${call.procedure}`;
  if (transport === 'trpc') {
    const { status, body } = await request(url, { method: 'POST', headers: call.headers, body: call.input });
    return { status, code: body?.error?.data?.code, body };
  }
  const { status, body } = await request(`${url}?batch=1`, { method: 'POST', headers: call.headers, body: { 0: call.input } });
  const item = Array.isArray(body) ? body[0] : undefined;
  if (!item) return { status, code: undefined, body };
  return { status: item.error ? item.error.data?.httpStatus : 200, code: item.error?.data?.code, body: item };
}
