import { z } from 'zod';
import { deletedSchema, deprecatedField } from './deleted.js';
import { queryBoolean } from './query-boolean.js';
import { warningsSchema } from './introspection.js';
import { connectionParams } from './params.js';
import { protectionConfirmName } from './protection.js';

export const keyTypes = ['string', 'hash', 'list', 'set', 'zset', 'stream'] as const;

export const searchKeysInput = connectionParams.extend({
  pattern: z.string().min(1).max(1000).default('*').describe('Redis glob pattern for SCAN MATCH.'),
  cursor: z
    .string()
    .regex(/^\d+(:\d+)?$/, 'must be a cursor returned by a previous search, or 0')
    .default('0')
    .describe('`0` (or nothing) to start; then the `nextCursor` of the previous response.'),
  limit: z
    .number()
    .int()
    .min(1)
    .max(1000)
    .optional()
    .describe('Keys wanted per page, default 100 (a SCAN COUNT hint; a page may hold a few more or fewer).'),
  count: z.number().int().min(1).max(1000).optional().meta({ deprecated: true }).describe('Deprecated: pass `limit`.'),
  type: z
    .union([z.enum(keyTypes), z.literal('')])
    .optional()
    .describe('Only keys of this type (SCAN TYPE); empty for any type.'),
  excludeQueueKeys: queryBoolean()
    .default(false)
    .describe("`true`: leave out keys under the queue library's reserved prefixes."),
});

export const keySummarySchema = z
  .object({
    key: z.string(),
    type: z.string().describe('Redis type: string, hash, list, set, zset, stream, or a module type.'),
    ttl: z.number().int().describe('Seconds to expiry; -1 when the key does not expire.'),
    memoryBytes: z.number().int().optional().describe('MEMORY USAGE, when the store allows it.'),
  })
  .meta({ id: 'KeySummary' });

export const searchKeysResultSchema = z
  .object({
    keys: z.array(keySummarySchema),
    nextCursor: z
      .string()
      .nullable()
      .describe('Pass back as `cursor` for the next page; null when the whole keyspace has been scanned.'),
    cursor: z.string().meta({ deprecated: true }).describe('Deprecated: read `nextCursor` (here `0` when done).'),
    done: z.boolean().meta({ deprecated: true }).describe('Deprecated: `nextCursor` is null when done.'),
    warnings: warningsSchema,
  })
  .meta({ id: 'KeySearchPage' });

export const keyParams = connectionParams.extend({
  key: z.string().min(1).max(8192).describe('Redis key, percent-encoded in REST paths.'),
});

export const maxValueBytes = 1_048_576;

export const readKeyInput = keyParams.extend({
  offset: z
    .number()
    .int()
    .min(0)
    .default(0)
    .describe('First element of a hash, list, set, sorted set or stream to return.'),
  limit: z.number().int().min(1).max(1000).default(100).describe('Elements per page, at most 1000.'),
  cursor: z
    .string()
    .regex(/^\d+$/, 'must be 0 or a nextCursor from a previous read')
    .optional()
    .describe(
      'Sets and hashes: read from this SCAN cursor (`0` to start) instead of `offset`; the cheap way through a big value.',
    ),
  maxBytes: z
    .number()
    .int()
    .min(1024)
    .max(maxValueBytes)
    .default(262_144)
    .describe('Cap on the bytes of value returned (strings are cut, collections end early); at most 1 MiB.'),
});

export const keyValueSchema = z
  .object({
    key: z.string(),
    type: z.string(),
    ttl: z.number().int().describe('Seconds to expiry; -1 when the key does not expire.'),
    size: z.number().int().describe('Bytes of a string; elements of a hash, list, set, sorted set or stream.'),
    value: z
      .unknown()
      .describe(
        'string: parsed JSON when it is JSON, else the text; hash: [{ field, value }]; list and set: [member]; ' +
          'zset: [{ member, score }]; stream: [{ id, fields }]; other types: null.',
      ),
    offset: z.number().int(),
    nextOffset: z
      .number()
      .int()
      .nullable()
      .describe('Offset of the next page; null when this page reaches the end (or when reading by cursor).'),
    nextCursor: z
      .string()
      .nullable()
      .describe('Sets and hashes read by `cursor`: the cursor of the next page; null when done.'),
    truncated: z
      .boolean()
      .describe('Whether part of the value is not in this response (more pages, or cut at maxBytes).'),
  })
  .meta({ id: 'KeyValue' });

/** `confirmName`: only a `confirm` connection needs it (the connection name: keys belong to no queue). */
export const deleteKeyInput = keyParams.extend({ confirmName: protectionConfirmName('connection') });
export const deleteKeyResultSchema = deletedSchema.extend({
  deleted: deprecatedField(z.literal(true), 'success'),
  key: deprecatedField(z.string(), 'id'),
});

export type SearchKeysResult = z.infer<typeof searchKeysResultSchema>;
export type KeySummary = z.infer<typeof keySummarySchema>;
export type KeyValue = z.infer<typeof keyValueSchema>;
