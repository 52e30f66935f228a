import { z } from 'zod';
import { queueParams } from './params.js';
import { epochMs } from './times.js';

/** Failed jobs one request examines at most; a bigger window is continued by cursor. */
export const maxFailuresScanned = 5000;
/** Job ids kept per group. */
export const failureExampleCount = 5;
/** `30m`, `24h`, `7d`: a window of at most 9999 of a unit. */
export const failureWindowPattern = /^([1-9]\d{0,3})([mhd])$/;

export const listFailuresInput = z.strictObject({
  ...queueParams.shape,
  window: z
    .string()
    .regex(failureWindowPattern, 'a span such as 30m, 24h or 7d')
    .default('24h')
    .describe(
      'How far back: the jobs that failed within this span of now, in minutes, hours or days (`30m`, `24h`, `7d`). Default `24h`. Ignored with `cursor` (the chain keeps its first window).',
    ),
  limit: z
    .number()
    .int()
    .min(1)
    .max(maxFailuresScanned)
    .default(1000)
    .describe(
      `Failed jobs examined by this request, newest failure first (at most ${maxFailuresScanned}); the rest of the window is continued by \`cursor\`.`,
    ),
  cursor: z
    .string()
    .min(1)
    .max(1000)
    .optional()
    .describe('The `cursor` of the previous answer, to continue the same triage.'),
});
export type ListFailuresInput = z.output<typeof listFailuresInput>;

export const failureGroupSchema = z
  .object({
    errorClass: z
      .string()
      .nullable()
      .describe(
        "The error's class: the name before the first `:` of its latest stack trace (`SmtpTimeoutError: …`), as a thrown error's `name` makes it; null when the job kept no stack trace.",
      ),
    reason: z
      .string()
      .describe(
        'The failure reason with what varies between occurrences replaced: quoted values by `"…"`, e-mail addresses by `<email>`, UUIDs by `<uuid>`, hex by `<hex>`, ids mixing letters and digits by `<id>`, numbers by `<n>`. Failures of one class and one such reason form one group.',
      ),
    exampleReason: z.string().describe("The newest failure's reason as the job keeps it (at most 2,000 characters)."),
    count: z.number().int().describe('Failed jobs of the group among those examined.'),
    firstSeen: epochMs('When the oldest failure of the group happened (its `finishedOn`).'),
    lastSeen: epochMs('When the newest failure of the group happened.'),
    exampleIds: z
      .array(z.string())
      .describe(`Up to ${failureExampleCount} job ids of the group, newest failure first.`),
  })
  .meta({ id: 'FailureGroup' });
export type FailureGroup = z.infer<typeof failureGroupSchema>;

export const failureTriageSchema = z
  .object({
    from: epochMs('Start of the window.'),
    to: epochMs(
      "End of the window: the first request's time, kept by its cursor chain (later failures are not counted).",
    ),
    groups: z
      .array(failureGroupSchema)
      .describe(
        'The groups of the jobs this request examined, most frequent first. To total a window continued by `cursor`, add up the groups of equal `errorClass` and `reason` (counts add; first and last seen widen).',
      ),
    scanned: z.number().int().describe('Failed jobs examined by this request.'),
    scannedTotal: z.number().int().describe('Failed jobs examined by the cursor chain so far.'),
    nextCursor: z.string().nullable().describe('Pass it back as `cursor` to continue; null when the window is done.'),
    cursor: z
      .string()
      .nullable()
      .meta({ deprecated: true })
      .describe('Deprecated: read `nextCursor` (the same value).'),
    done: z.boolean().describe('Whether every failed job of the window has been examined.'),
  })
  .meta({ id: 'FailureTriage' });
export type FailureTriage = z.infer<typeof failureTriageSchema>;
