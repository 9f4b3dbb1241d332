/**
 * Paging by what the platform answers, for both searches (devices and RPS records): a platform may
 * serve fewer records a page than asked, so the size it answered with — not the size asked — says
 * how far a page reaches, and the platform's own answers (a short or empty page, `total` reached)
 * say where a listing ends.
 */

/** Records per search page asked for: the platform's maximum. */
export const PAGE_SIZE = 100;

/** What paging needs of a page of either search. */
export interface PageShape {
  readonly pageSize: number;
  readonly total: number;
  readonly content: readonly unknown[];
}

/**
 * The size the platform cut `page` at: its answered `pageSize` when that is a size it could have
 * used (1 to what was asked), else — a platform that answers something else — the records it returned.
 */
export function pageSizeOf(page: PageShape): number {
  const answered = page.pageSize;
  if (Number.isInteger(answered) && answered >= 1 && answered <= PAGE_SIZE) return answered;
  return Math.max(1, Math.min(PAGE_SIZE, page.content.length));
}

/** Whether `page` (number `pageNumber`, cut at `size`) is the last by the platform's own answer. */
export function isLastPage(page: PageShape, pageNumber: number, size: number): boolean {
  return page.content.length < size || pageNumber * size >= page.total;
}
