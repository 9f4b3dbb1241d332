/**
 * The file in an application's pace directory (pace-store.ts) where the rate the machine's clients
 * proved before any refusal is kept between commands (the SDK's proven-rate.ts says what for):
 * `proven.json`, `{ "rate": requests a second, "at": the machine's monotonic clock, ms }`. Written
 * whole by a rename, with no lock (the last writer wins: any rate kept is one that passed); read
 * only after the checks every pace file gets (this user's own, a regular file, not writable by
 * others). A file that does not read as one remembers nothing.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { readOwnFile } from "../deployment/shared-record-paths";

const PROVEN = "proven.json";

/** A rate kept, and when (machine-clock milliseconds). */
export interface ProvenRecord {
  readonly rate: number;
  readonly at: number;
}

/** The object `text` holds as JSON; undefined when it holds none (a file of this user's, read back). */
export function jsonObject(text: string): Record<string, unknown> | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  return typeof parsed === "object" && parsed !== null ? (parsed as Record<string, unknown>) : undefined;
}

/** The record kept in `directory`; undefined when there is none or it does not read as one. */
export function readProven(directory: string): ProvenRecord | undefined {
  const text = readOwnFile(path.join(directory, PROVEN));
  if (text === undefined) return undefined;
  const parsed = jsonObject(text);
  if (parsed === undefined) return undefined;
  const { rate, at } = parsed;
  if (typeof rate !== "number" || typeof at !== "number") return undefined;
  if (!Number.isFinite(rate) || !Number.isFinite(at) || !(rate > 0)) return undefined;
  return { rate, at };
}

/** Keeps `record` in `directory` (whole, by a rename). */
export function writeProven(directory: string, record: ProvenRecord): void {
  const file = path.join(directory, PROVEN);
  const temporary = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, JSON.stringify(record), { mode: 0o600 });
  fs.renameSync(temporary, file);
}

/** Forgets the record kept in `directory`. */
export function removeProven(directory: string): void {
  fs.rmSync(path.join(directory, PROVEN), { force: true });
}
