import { router } from '../../server/trpc/init.js';
import { addJob } from './add-job.js';
import { invokeJobs, removeJobs, retryJobs } from './bulk-jobs.js';
import { clearJobLogs } from './clear-job-logs.js';
import { getJob } from './get-job.js';
import { getJobLogs } from './get-job-logs.js';
import { getJobStacktraces } from './get-job-stacktraces.js';
import { getJobTree } from './get-job-tree.js';
import { listJobs } from './list-jobs.js';
import { searchJobs } from './search-jobs.js';

export const jobsRouter = router({
  list: listJobs,
  search: searchJobs,
  get: getJob,
  logs: getJobLogs,
  clearLogs: clearJobLogs,
  stacktraces: getJobStacktraces,
  tree: getJobTree,
  add: addJob,
  retry: retryJobs,
  remove: removeJobs,
  invoke: invokeJobs,
});
