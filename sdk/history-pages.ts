/**
 * Iteration over a device's property history, page by page as the platform hands out `pageKey`s:
 * the first request carries none, each next one the `nextPageKey` of the page before, until a page
 * comes without one.
 */
import type { PropertyHistoryPage, PropertyReport } from "./schemas/history";

/** Fetches one page: the first when `pageKey` is undefined. */
export type HistoryPageFetcher = (pageKey: string | undefined) => Promise<PropertyHistoryPage>;

/**
 * An async iterable over a device's property reports, fetching pages one at a time as iteration
 * proceeds; `pages()` iterates the pages themselves. Each iteration starts again from the first
 * page. Reports arriving while iterating are the platform's business: its keys, not positions,
 * say where the next page starts.
 */
export class PropertyHistory implements AsyncIterable<PropertyReport> {
  constructor(private readonly fetchPage: HistoryPageFetcher) {}

  /** The pages, each as the platform sent it. */
  async *pages(): AsyncGenerator<PropertyHistoryPage, void, undefined> {
    let pageKey: string | undefined;
    do {
      const page = await this.fetchPage(pageKey);
      yield page;
      pageKey = page.nextPageKey;
    } while (pageKey !== undefined);
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<PropertyReport, void, undefined> {
    for await (const page of this.pages()) yield* page.list;
  }

  /** Collects every report into an array. */
  async toArray(): Promise<PropertyReport[]> {
    const all: PropertyReport[] = [];
    for await (const report of this) all.push(report);
    return all;
  }
}
