import type { JobState } from '../../contracts/jobs.js';

/**
 * A state as BullMQ names it (`waiting-children`, …) in the API's one
 * spelling (`waitingChildren`): keys and statuses are camelCase everywhere
 * outside the metrics routes, which keep BullMQ's native names.
 */
export function toJobState(bullmqState: string): JobState {
  return bullmqState === 'waiting-children' ? 'waitingChildren' : (bullmqState as JobState);
}
