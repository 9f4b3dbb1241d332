/**
 * `npm run bench:table`: regenerates the benchmark tables between the lines
 * `<!-- bench:table -->` and `<!-- /bench:table -->` from bench/results.json, in whichever
 * Markdown file of the repository holds them (README.md or a file under docs/). `npm run bench`
 * runs it at its end.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { BenchResults } from "./results";
import { platformLimitHistory } from "./platform-limit-table";
import { renderTables } from "./results-table";

export const OPEN_MARKER = "<!-- bench:table -->";
export const CLOSE_MARKER = "<!-- /bench:table -->";
export const HISTORY_OPEN = "<!-- bench:history -->";
export const HISTORY_CLOSE = "<!-- /bench:history -->";

const repoRoot = path.resolve(__dirname, "..");

/** bench/results.json, as `npm run bench` last wrote it. */
export const RESULTS_FILE = path.join(__dirname, "results.json");

/** bench/README.md: the bench's own notebook, holding every run's figures (the history). */
export const HISTORY_FILE = path.join(__dirname, "README.md");

/** The history's generated part: every platform-limit figure of bench/results.json. */
export function renderHistory(results: BenchResults): string {
  return platformLimitHistory(results.platformLimit) ?? "No platform-limit figures.";
}

/** README.md and every Markdown file under docs/: the documentation. */
export function markdownFiles(): string[] {
  const files = [path.join(repoRoot, "README.md")];
  const walk = (dir: string): void => {
    if (!existsSync(dir)) return;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith(".md")) files.push(full);
    }
  };
  walk(path.join(repoRoot, "docs"));
  return files;
}

/** The files holding the markers. */
export function filesWithMarkers(): string[] {
  return markdownFiles().filter((file) => readFileSync(file, "utf8").includes(OPEN_MARKER));
}

/** What lies between the markers of `text` (without the newlines next to them). */
export function betweenMarkers(text: string, openMarker = OPEN_MARKER, closeMarker = CLOSE_MARKER): string {
  const open = text.indexOf(openMarker);
  const close = text.indexOf(closeMarker, open);
  if (open < 0 || close < 0) throw new Error(`no ${openMarker} … ${closeMarker} pair`);
  return text.slice(open + openMarker.length, close).replace(/^\n+|\n+$/g, "");
}

/** `text` with `tables` between its markers. */
export function replaceBetweenMarkers(
  text: string,
  tables: string,
  openMarker = OPEN_MARKER,
  closeMarker = CLOSE_MARKER,
): string {
  const open = text.indexOf(openMarker);
  const close = text.indexOf(closeMarker, open);
  if (open < 0 || close < 0) throw new Error(`no ${openMarker} … ${closeMarker} pair`);
  return `${text.slice(0, open + openMarker.length)}\n\n${tables}\n\n${text.slice(close)}`;
}

/** Rewrites the tables of every file with the markers; returns those files. */
export function writeTables(results: BenchResults): string[] {
  const files = filesWithMarkers();
  const tables = renderTables(results);
  for (const file of files) writeFileSync(file, replaceBetweenMarkers(readFileSync(file, "utf8"), tables));
  const history = replaceBetweenMarkers(
    readFileSync(HISTORY_FILE, "utf8"),
    renderHistory(results),
    HISTORY_OPEN,
    HISTORY_CLOSE,
  );
  writeFileSync(HISTORY_FILE, history);
  return [...files, HISTORY_FILE].map((file) => path.relative(repoRoot, file));
}

if (require.main === module) {
  const results = JSON.parse(readFileSync(RESULTS_FILE, "utf8")) as BenchResults;
  const files = writeTables(results);
  if (files.length === 0) {
    console.error(`no file of README.md or docs/ holds ${OPEN_MARKER}`);
    process.exit(1);
  }
  for (const file of files) console.log(`tables regenerated in ${file}`);
}
