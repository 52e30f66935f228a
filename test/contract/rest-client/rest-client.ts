// A plain REST client an outside tool would write: no Bullpen code, only the
// types openapi-typescript generated from /api/openapi.json (./schema.js).
import type { paths } from './schema.js';

type ListQueues = paths['/c/{connectionId}/queues']['get'];
type Purge = paths['/c/{connectionId}/queues/{queueName}/purge']['post'];
type DeleteQueue = paths['/c/{connectionId}/queues/{queueName}']['delete'];

export type QueueList = ListQueues['responses'][200]['content']['application/json'];
export type PurgeBody = Purge['requestBody']['content']['application/json'];
export type PurgeResult = Purge['responses'][200]['content']['application/json'];
export type ApiError = Purge['responses'][409]['content']['application/json'];

export type Outcome<T> = { ok: true; body: T } | { ok: false; status: number; error: ApiError };

async function call<T>(url: string, init: RequestInit = {}): Promise<Outcome<T>> {
  const response = await fetch(url, init);
  const body: unknown = await response.json();
  return response.ok ? { ok: true, body: body as T } : { ok: false, status: response.status, error: body as ApiError };
}

const queueUrl = (api: string, { connectionId, queueName }: { connectionId: string; queueName: string }) =>
  `${api}/c/${encodeURIComponent(connectionId)}/queues/${encodeURIComponent(queueName)}`;

export function listQueues(
  api: string,
  path: ListQueues['parameters']['path'],
  query: ListQueues['parameters']['query'] = {},
) {
  const search = new URLSearchParams(
    Object.entries(query ?? {}).map(([key, value]): [string, string] => [key, String(value)]),
  );
  return call<QueueList>(`${api}/c/${encodeURIComponent(path.connectionId)}/queues?${search}`);
}

export function purgeQueue(api: string, path: Purge['parameters']['path'], body: PurgeBody) {
  return call<PurgeResult>(`${queueUrl(api, path)}/purge`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

export function deleteQueue(
  api: string,
  path: DeleteQueue['parameters']['path'],
  query: DeleteQueue['parameters']['query'],
) {
  return call<DeleteQueue['responses'][200]['content']['application/json']>(
    `${queueUrl(api, path)}?confirmName=${encodeURIComponent(query.confirmName)}`,
    { method: 'DELETE' },
  );
}

/** A failed purge tells which status hit the safety cap: a route-specific field of the error body. */
export function capStatus(error: ApiError): unknown {
  return error.code === 'PURGE_CAP_REACHED' ? error.status : undefined;
}
