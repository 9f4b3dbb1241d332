/**
 * One page of a device's property history: the reports in a time window, oldest first, after the
 * page key. A page key names the last report of the page before (its time and recording order),
 * never a position, so reports recorded between two requests — always later than every report
 * before them — neither shift nor repeat what the next page returns.
 */
import { invalidParameter } from "../http/emulator-error";
import type { PropertyReportRecord } from "../state/types";

/** Without `startTime` and `endTime` the platform serves the last three days (its reference). */
export const DEFAULT_WINDOW_MS = 3 * 24 * 60 * 60 * 1000;

/** A time window, both ends included, in emulator-clock milliseconds. */
export interface HistoryWindow {
  readonly startTime: number;
  readonly endTime: number;
}

/** Where a page starts: after this report. */
interface PageCursor {
  readonly ts: number;
  readonly seq: number;
}

/**
 * The window a query asks for. Both ends missing: the three days up to now. Only `startTime`: from
 * it up to now. Only `endTime`: the three days up to it (the emulator's choice; the reference only
 * says what happens without both).
 */
export function historyWindow(now: number, startTime?: number, endTime?: number): HistoryWindow {
  const end = endTime ?? now;
  const start = startTime ?? end - DEFAULT_WINDOW_MS;
  if (start > end) throw invalidParameter(`startTime ${start} is after endTime ${end}`);
  return { startTime: start, endTime: end };
}

/** An opaque key for the page after `report`. */
export function pageKeyAfter(report: PropertyReportRecord): string {
  return Buffer.from(`${report.ts}.${report.seq}`, "utf8").toString("base64url");
}

function parsePageKey(pageKey: string): PageCursor {
  const match = /^(\d+)\.(\d+)$/.exec(Buffer.from(pageKey, "base64url").toString("utf8"));
  if (!match)
    throw invalidParameter(`pageKey ${JSON.stringify(pageKey)} is not a key this platform handed out`);
  return { ts: Number(match[1]), seq: Number(match[2]) };
}

function isAfter(report: PropertyReportRecord, cursor: PageCursor): boolean {
  return report.ts > cursor.ts || (report.ts === cursor.ts && report.seq > cursor.seq);
}

/** The page's reports and the key of the next page (undefined when nothing follows in the window). */
export function historyPage(
  reports: readonly PropertyReportRecord[],
  window: HistoryWindow,
  pageSize: number,
  pageKey: string | undefined,
): { list: PropertyReportRecord[]; nextPageKey: string | undefined } {
  const cursor = pageKey === undefined ? undefined : parsePageKey(pageKey);
  const matching = reports
    .filter((r) => r.ts >= window.startTime && r.ts <= window.endTime)
    .filter((r) => cursor === undefined || isAfter(r, cursor))
    .sort((a, b) => a.ts - b.ts || a.seq - b.seq);
  const list = matching.slice(0, pageSize);
  const last = list.at(-1);
  const nextPageKey = matching.length > pageSize && last ? pageKeyAfter(last) : undefined;
  return { list, nextPageKey };
}
