// What an outside TypeScript project writes against the client @hey-api/openapi-ts
// generated from /api/openapi.json (./generated): no Bullpen code is imported.
import { createClient } from './generated/client/index.js';
import { authSignOut, queuesGet, queuesList, queuesPause, type QueuesGetErrors } from './generated/index.js';

const clientFor = (baseUrl: string, headers: Record<string, string>) => createClient({ baseUrl, headers });

/** The client leaves `response` undefined only when fetch itself failed. */
function statusOf(response: Response | undefined): number {
  if (!response) throw new Error('no response: the request did not reach the service');
  return response.status;
}

/** Signs out as the generated client does it: a POST with no body. */
export async function signOut(baseUrl: string, headers: Record<string, string>) {
  const { data, response } = await authSignOut({ client: clientFor(baseUrl, headers) });
  return { status: statusOf(response), success: data?.success };
}

/** Pauses a queue with no body: every field of the pause body is optional. */
export async function pauseQueue(
  baseUrl: string,
  headers: Record<string, string>,
  connectionId: string,
  queueName: string,
) {
  const { data, response } = await queuesPause({
    client: clientFor(baseUrl, headers),
    path: { connectionId, queueName },
  });
  return { status: statusOf(response), isPaused: data?.isPaused };
}

/** Reads a queue; a missing one is the 404 whose `code` the document types as exactly `NOT_FOUND`. */
export async function readQueue(
  baseUrl: string,
  headers: Record<string, string>,
  connectionId: string,
  queueName: string,
) {
  const { data, error, response } = await queuesGet({
    client: clientFor(baseUrl, headers),
    path: { connectionId, queueName },
  });
  const status = statusOf(response);
  if (status !== 404) return { status, name: data?.name };
  const notFound = error as QueuesGetErrors[404];
  const code: 'NOT_FOUND' = notFound.code;
  return { status, code, message: notFound.message };
}

/** Lists queues with their totals: `totals` is a boolean query parameter, as the document types it. */
export async function listWithTotals(baseUrl: string, headers: Record<string, string>, connectionId: string) {
  const { data, response } = await queuesList({
    client: clientFor(baseUrl, headers),
    path: { connectionId },
    query: { totals: true },
  });
  return { status: statusOf(response), waiting: data?.totals?.waiting };
}
