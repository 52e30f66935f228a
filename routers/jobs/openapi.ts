/** REST paths of the job routes, under a queue of a connection. */
export const queuePath = '/c/{connectionId}/queues/{queueName}';
export const jobsPath = `${queuePath}/jobs`;
export const jobPath = `${jobsPath}/{jobId}`;

export const jobsTags = ['jobs'];
