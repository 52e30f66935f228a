import { z } from 'zod';

export const maxPageSize = 100;
const defaultPageSize = 50;

/** A position in a list, as `nextCursor` hands it out: opaque to clients (base64url of `o:<offset>`). */
const encodeCursor = (offset: number) => Buffer.from(`o:${offset}`).toString('base64url');

function decodeCursor(cursor: string): number | undefined {
  const match = /^o:(\d{1,9})$/.exec(Buffer.from(cursor, 'base64url').toString());
  return match ? Number(match[1]) : undefined;
}

/**
 * A paged list's query (README, "Request conventions"): `limit` and `cursor`
 * (the `nextCursor` of the page before). `page` and `pageSize` are the older
 * form, still taken; `cursor` wins over `page`, `limit` over `pageSize`.
 */
export const pageQuery = z.object({
  limit: z
    .number()
    .int()
    .min(1)
    .max(maxPageSize)
    .optional()
    .describe(`Items per page, at most ${maxPageSize} (default ${defaultPageSize}).`),
  cursor: z
    .string()
    .max(100)
    .refine((cursor) => decodeCursor(cursor) !== undefined, 'must be a `nextCursor` this list answered')
    .optional()
    .describe('The `nextCursor` of the previous page; omit for the first.'),
  page: z
    .number()
    .int()
    .min(1)
    .max(1_000_000)
    .optional()
    .meta({ deprecated: true })
    .describe('Deprecated: pass `cursor`. 1-based page number.'),
  pageSize: z
    .number()
    .int()
    .min(1)
    .max(maxPageSize)
    .optional()
    .meta({ deprecated: true })
    .describe('Deprecated: pass `limit`.'),
});

export const pageInfo = z.object({
  nextCursor: z.string().nullable().describe('Pass as `cursor` for the next page; null on the last.'),
  total: z.number().int().describe('Items across all pages.'),
  page: z.number().int().describe('1-based number of this page (the older form).'),
  pageSize: z.number().int().describe('Items per page (the older form of `limit`).'),
  totalPages: z.number().int(),
  hasMore: z.boolean().describe('Whether a page after this one exists (`nextCursor` is not null).'),
});

export type PageQuery = z.infer<typeof pageQuery>;
export type PageInfo = z.infer<typeof pageInfo>;

/** Where a page starts and how long it is, from either form of the query. */
function positionOf({ limit, cursor, page, pageSize }: PageQuery): { offset: number; size: number } {
  const size = limit ?? pageSize ?? defaultPageSize;
  const offset = cursor !== undefined ? (decodeCursor(cursor) ?? 0) : ((page ?? 1) - 1) * size;
  return { offset, size };
}

/** The page figures for `total` items; the one place they are computed. */
export function pageInfoFor(total: number, query: PageQuery): PageInfo {
  const { offset, size } = positionOf(query);
  const hasMore = offset + size < total;
  return {
    nextCursor: hasMore ? encodeCursor(offset + size) : null,
    total,
    page: Math.floor(offset / size) + 1,
    pageSize: size,
    totalPages: Math.ceil(total / size),
    hasMore,
  };
}

/** Zero-based [start, end] indexes (inclusive) of a page, as Redis ranges take them. */
export function pageRange(query: PageQuery): { start: number; end: number } {
  const { offset, size } = positionOf(query);
  return { start: offset, end: offset + size - 1 };
}
