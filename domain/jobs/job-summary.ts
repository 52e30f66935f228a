import type { Job } from 'bullmq';
import type { JobState, JobSummary, SummaryField, SummaryOptions } from '../../contracts/jobs.js';
import { summaryFields } from '../../contracts/jobs.js';
import { previewValue } from './preview.js';

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
