import { z } from 'zod';
import { jobParams } from './params.js';

/** The job hash fields a client may read in byte ranges: the ones that can be big. */
export const readableJobFields = ['data', 'returnvalue', 'opts', 'stacktrace', 'failedReason', 'progress'] as const;

/** Bytes of one ranged read at most. */
export const maxFieldRangeBytes = 1024 * 1024;

export const jobFieldInput = jobParams.extend({
  field: z
    .enum(readableJobFields)
    .describe('The job hash field, as BullMQ stores it (`data` and `returnvalue` are JSON text).'),
  offset: z
    .number()
    .int()
    .min(0)
    .default(0)
    .describe("First byte to read (0-based): the previous read's `nextOffset`."),
  length: z
    .number()
    .int()
    .min(1)
    .max(maxFieldRangeBytes)
    .default(maxFieldRangeBytes)
    .describe(`Bytes to read, at most ${maxFieldRangeBytes}.`),
});

export const jobFieldSchema = z
  .object({
    field: z.enum(readableJobFields),
    offset: z.number().int(),
    /** Never cuts a UTF-8 character: may be a few bytes less than asked. */
    length: z
      .number()
      .int()
      .describe('Bytes in `text` (UTF-8); a character is never cut, so it may be a few bytes under the length asked.'),
    totalLength: z.number().int().describe('Bytes the field holds in all.'),
    nextOffset: z.number().int().nullable().describe('Where the next read starts; null once the end is reached.'),
    text: z
      .string()
      .describe('The bytes read, as text: concatenated in order, the parts are the field exactly as stored.'),
  })
  .meta({ id: 'JobFieldRange' });
