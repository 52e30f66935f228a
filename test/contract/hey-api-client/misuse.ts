// Each marked line must NOT compile: the generated client is precise, not `any`.
import { queuesGet, queuesPurge, type QueuesGetErrors, type QueuesPurgeErrors } from './generated/index.js';

declare const notFound: QueuesGetErrors[404];
declare const capReached: QueuesPurgeErrors[409];
export const conflict: 'CONFLICT' = notFound.code; // expect-error: a 404 here is only NOT_FOUND
export const removed: string = capReached.removedSoFar; // expect-error: a number
export const noQueue = () => queuesGet({ path: { connectionId: 'main' } }); // expect-error: queueName is required
export const noConfirm = () =>
  queuesPurge({ path: { connectionId: 'main', queueName: 'q' }, body: { statuses: ['failed'] } }); // expect-error: confirmName is required
