/**
 * The benchmark's tables in the documentation are generated from the committed bench/results.json
 * (`npm run bench:table`): a hand edit of a figure, or results committed without regenerating the
 * tables, fails here.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { BenchResults } from "../../../bench/results";
import { renderTables } from "../../../bench/results-table";
import {
  betweenMarkers,
  filesWithMarkers,
  replaceBetweenMarkers,
  RESULTS_FILE,
} from "../../../bench/write-table";

const results = JSON.parse(readFileSync(RESULTS_FILE, "utf8")) as BenchResults;

describe("the benchmark's tables", () => {
  it("are held between markers by exactly one file of README.md and docs/", () => {
    expect(filesWithMarkers()).toHaveLength(1);
  });

  it("are what bench/results.json generates", () => {
    for (const file of filesWithMarkers()) {
      expect(betweenMarkers(readFileSync(file, "utf8")), path.basename(file)).toBe(renderTables(results));
    }
  });

  it("replace what lies between the markers and nothing else", () => {
    const text = "before\n<!-- bench:table -->\nold\n<!-- /bench:table -->\nafter\n";
    const replaced = replaceBetweenMarkers(text, "new");
    expect(replaced).toBe("before\n<!-- bench:table -->\n\nnew\n\n<!-- /bench:table -->\nafter\n");
    expect(betweenMarkers(replaced)).toBe("new");
    expect(replaceBetweenMarkers(replaced, "new")).toBe(replaced);
  });
});
