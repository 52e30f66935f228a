import type { Job } from 'bullmq';
import type { JobState, JobSummary, SummaryField, SummaryOptions } from '../../contracts/jobs.js';
import { summaryFields } from '../../contracts/jobs.js';
import { jobScalarsFromHash, type JobHash } from '../../server/bullmq/job-hash.js';
import { previewStoredJson, previewValue } from './preview.js';

type Previewed = 'data' | 'returnvalue';

/** The small fields of a job, as both summaries and the detail present them. */
export function jobScalars(job: Job) {
  return {
    name: job.name,
    progress: job.progress,
    failedReason: job.failedReason ?? null,
    attemptsMade: job.attemptsMade,
    delay: job.delay,
    priority: job.priority,
    timestamp: job.timestamp,
    processedOn: job.processedOn ?? null,
    finishedOn: job.finishedOn ?? null,
  };
}

/** A job as lists show it: only the requested fields, `data`/`returnvalue` previewed. */
export function toJobSummary(job: Job, state: JobState, { fields, maxDataBytes }: SummaryOptions): JobSummary {
  const wanted = new Set<SummaryField>(fields ?? summaryFields);
  const summary: JobSummary = { id: String(job.id), truncated: false, truncatedFields: [] };
  const scalar = { ...jobScalars(job), state } satisfies Partial<JobSummary>;
  for (const [field, value] of Object.entries(scalar)) {
    if (wanted.has(field as SummaryField)) Object.assign(summary, { [field]: value });
  }
  for (const field of ['data', 'returnvalue'] as Previewed[]) {
    if (!wanted.has(field)) continue;
    const preview = previewValue(job[field], maxDataBytes);
    summary[field] = preview.value;
    if (preview.truncated) summary.truncatedFields.push(field);
  }
  summary.truncated = summary.truncatedFields.length > 0;
  return summary;
}

/** The hash fields a summary with these options needs (data and returnvalue only when asked for). */
export function summaryFieldsToRead(
  fields: readonly string[],
  { fields: wanted }: Pick<SummaryOptions, 'fields'>,
): string[] {
  const previews = (['data', 'returnvalue'] as Previewed[]).filter((field) => !wanted || wanted.includes(field));
  return [...fields, ...previews];
}

/** toJobSummary for a job read as raw hash fields: previews cut from the stored JSON text. */
export function summaryFromHash(
  id: string,
  hash: JobHash,
  state: JobState,
  { fields, maxDataBytes }: SummaryOptions,
): JobSummary {
  const wanted = new Set<SummaryField>(fields ?? summaryFields);
  const summary: JobSummary = { id, truncated: false, truncatedFields: [] };
  const scalar = { ...jobScalarsFromHash(hash), state } satisfies Partial<JobSummary>;
  for (const [field, value] of Object.entries(scalar)) {
    if (wanted.has(field as SummaryField)) Object.assign(summary, { [field]: value });
  }
  for (const field of ['data', 'returnvalue'] as Previewed[]) {
    if (!wanted.has(field)) continue;
    const preview = previewStoredJson(hash[field], maxDataBytes);
    summary[field] = preview.value;
    if (preview.truncated) summary.truncatedFields.push(field);
  }
  summary.truncated = summary.truncatedFields.length > 0;
  return summary;
}
