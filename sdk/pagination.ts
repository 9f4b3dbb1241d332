/** Iteration over every page of a search. */
import type { Page } from "./schemas/common";

/** Fetches one page, numbered from 1 as the platform counts. */
export type PageFetcher<T> = (pageNumber: number, pageSize: number) => Promise<Page<T>>;

/** Records per page when listing: the platform's maximum. */
export const LIST_PAGE_SIZE = 100;

/**
 * An async iterable over all records of a search, fetching pages one at a time as iteration
 * proceeds. Each `for await` starts again from page 1.
 *
 * The listing is not a snapshot: records added or removed while iterating can shift between pages,
 * so a record may be skipped or seen twice.
 */
export class PageIterator<T> implements AsyncIterable<T> {
  constructor(
    private readonly fetchPage: PageFetcher<T>,
    private readonly pageSize: number = LIST_PAGE_SIZE,
  ) {}

  async *[Symbol.asyncIterator](): AsyncGenerator<T, void, undefined> {
    let seen = 0;
    for (let pageNumber = 1; ; pageNumber += 1) {
      const page = await this.fetchPage(pageNumber, this.pageSize);
      yield* page.content;
      seen += page.content.length;
      // `total` ends the listing; an empty page ends it too, in case `total` overstates.
      if (page.content.length === 0 || seen >= page.total) return;
    }
  }

  /** Collects every record into an array. */
  async toArray(): Promise<T[]> {
    const all: T[] = [];
    for await (const item of this) all.push(item);
    return all;
  }
}
