// Each marked line must NOT compile: the generated types are precise, not `any`.
import type { PurgeBody, QueueList } from './rest-client.js';

declare const list: QueueList;
export const failed: string = list.queues[0]!.jobCounts.failed; // expect-error: a number
export const body: PurgeBody = { confirmName: 'q', statuses: ['stuck'] }; // expect-error: not a status
export const noName: PurgeBody = { statuses: ['failed'] }; // expect-error: confirmName is required
