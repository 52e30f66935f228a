import type { PageInfo } from '../../api-types.js';

/** "page 1 of 3, 120 queues (next: --page 2)". */
export function pageFooter(page: PageInfo, noun: string): string {
  const next = page.hasMore ? ` (next: --page ${page.page + 1})` : '';
  return `page ${page.page} of ${Math.max(page.totalPages, 1)}, ${page.total} ${noun}${next}\n`;
}
