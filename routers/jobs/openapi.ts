/** REST paths of the job routes, under a queue of a connection. */
export const queuePath = '/c/{connectionId}/queues/{queueName}';
export const jobsPath = `${queuePath}/jobs`;
export const jobPath = `${jobsPath}/{jobId}`;

export const jobsTags = ['jobs'];

/** Errors every job route can answer with. */
export const jobRouteErrors = {
  400: 'Invalid input; the message names the field',
  403: 'The connection belongs to another organization, or the role may not do this',
  404: 'No such connection, or no such job',
  503: 'The store is unavailable',
} as const;
