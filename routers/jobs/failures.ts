import { failureTriageSchema, listFailuresInput, maxFailuresScanned } from '../../contracts/job-failures.js';
import { queueProcedure } from '../../server/trpc/procedures.js';
import { triageFailures } from './failures/triage-failures.js';
import { jobsTags, queuePath } from './openapi.js';

export const failuresProcedure = queueProcedure
  .meta({
    permission: 'jobs.read',
    errors: {
      VALIDATION_FAILED:
        'A `window` that is not a span such as `24h`, a `limit` out of range, or a `cursor` of another queue',
    },
    openapi: {
      method: 'GET',
      path: `${queuePath}/failures`,
      tags: jobsTags,
      summary:
        'Failure triage: the failed jobs of a window grouped by error class and normalised reason, with counts, first and last seen and example ids',
      description:
        `Reads the failed jobs that failed within \`window\` of now, newest failure first, at most \`limit\` (≤ ${maxFailuresScanned}) per request: ` +
        "each one's failure reason, finish time and the first line of its latest stack trace (the error class), never its data. " +
        'Reasons are grouped once numbers, ids, hex, e-mail addresses and quoted values are replaced by placeholders. ' +
        'A window with more failed jobs answers `cursor` (and `done: false`): send it back to read on, like `GET …/search`; the groups are per request.',
    },
  })
  .input(listFailuresInput)
  .output(failureTriageSchema)
  .query(({ ctx, input }) =>
    triageFailures({
      store: ctx.store,
      queue: ctx.queue,
      window: input.window,
      limit: input.limit,
      cursor: input.cursor,
    }),
  );
