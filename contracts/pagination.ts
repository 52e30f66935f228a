import { z } from 'zod';

export const maxPageSize = 100;

/** `page` (1-based) and `pageSize` (1..100, default 50) for every paginated list. */
export const pageQuery = z.object({
  page: z.number().int().min(1).max(1_000_000).default(1).describe('1-based page number.'),
  pageSize: z.number().int().min(1).max(maxPageSize).default(50).describe(`Items per page, at most ${maxPageSize}.`),
});

export const pageInfo = z.object({
  total: z.number().int().describe('Items across all pages.'),
  page: z.number().int(),
  pageSize: z.number().int(),
  totalPages: z.number().int(),
  hasMore: z.boolean().describe('Whether a page after this one exists.'),
});

export type PageQuery = z.infer<typeof pageQuery>;
export type PageInfo = z.infer<typeof pageInfo>;

/** The page figures for `total` items; the one place they are computed. */
export function pageInfoFor(total: number, { page, pageSize }: PageQuery): PageInfo {
  const totalPages = Math.ceil(total / pageSize);
  return { total, page, pageSize, totalPages, hasMore: page < totalPages };
}

/** Zero-based [start, end] indexes (inclusive) of a page, as Redis ranges take them. */
export function pageRange({ page, pageSize }: PageQuery): { start: number; end: number } {
  const start = (page - 1) * pageSize;
  return { start, end: start + pageSize - 1 };
}
