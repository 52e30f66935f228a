import { AppError, notFound } from '../../contracts/app-error.js';
import { jobFieldInput, jobFieldSchema } from '../../contracts/job-fields.js';
import { queueProcedure } from '../../server/trpc/procedures.js';
import { jobPath, jobsTags } from './openapi.js';

export const jobFieldPath = `${jobPath}/fields/{field}`;

export const fieldProcedure = queueProcedure
  .meta({
    permission: 'jobs.read',
    queueCheck: 'in-script',
    differs: {
      pagination:
        'Reads one field of one job in byte ranges (`offset`, `length`, `nextOffset`), not a list: the bytes of a value do not move.',
    },
    openapi: {
      method: 'GET',
      path: jobFieldPath,
      tags: jobsTags,
      summary: "A byte range of one of a job's fields: how a job too big for one response (RESPONSE_TOO_LARGE) is read",
    },
  })
  .input(jobFieldInput)
  .output(jobFieldSchema)
  .query(async ({ ctx, input }) => {
    const { field, offset, length, jobId } = input;
    const queue = ctx.queueLookup;
    const read = await ctx.store.readJobField({
      queueName: queue.name,
      jobId,
      field,
      offset,
      length,
      prefixes: queue.prefixes,
    });
    if (read.found === 'queue-missing') throw queue.notFound();
    if (read.found === 'job-missing') throw notFound(`Job "${jobId}" in queue "${queue.name}"`);
    if (read.found === 'field-missing') throw notFound(`Field "${field}" of job "${jobId}"`);
    if (offset > read.totalLength)
      throw new AppError('VALIDATION_FAILED', `offset is past the field's end (${read.totalLength} bytes)`, {
        field: 'offset',
      });
    const end = offset + read.bytes;
    return {
      field,
      offset,
      length: read.bytes,
      totalLength: read.totalLength,
      nextOffset: end < read.totalLength ? end : null,
      text: read.text,
    };
  });
