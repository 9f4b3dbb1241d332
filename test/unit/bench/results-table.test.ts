/**
 * The benchmark's tables in the documentation are generated from the committed bench/results.json
 * (`npm run bench:table`): a hand edit of a figure, or results committed without regenerating the
 * tables, fails here. The guide shows the figures of the current code; bench/README.md keeps every run
 * (the history), so nothing measured is lost.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { BenchResults } from "../../../bench/results";
import { renderTables } from "../../../bench/results-table";
import {
  betweenMarkers,
  filesWithMarkers,
  HISTORY_CLOSE,
  HISTORY_FILE,
  HISTORY_OPEN,
  renderHistory,
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

  it("keep every platform-limit figure in the bench's history, as bench/results.json generates it", () => {
    const history = betweenMarkers(readFileSync(HISTORY_FILE, "utf8"), HISTORY_OPEN, HISTORY_CLOSE);
    expect(history).toBe(renderHistory(results));
    const rows = history.split("\n").filter((line) => /^\| \d/.test(line));
    expect(rows).toHaveLength(results.platformLimit?.length ?? 0);
    expect(results.platformLimit?.length).toBeGreaterThan(0);
  });

  it("give users each rate-limit row's code before the pacing and its latest figures only", () => {
    const guide = betweenMarkers(readFileSync(filesWithMarkers()[0] ?? "", "utf8"));
    const section = guide.slice(guide.indexOf("### How many stacks"), guide.indexOf("**100,000 devices**"));
    const codes = section
      .split("\n")
      .filter((line) => /^\| \d/.test(line))
      .map((line) => line.split(" | ")[1]);
    const figures = results.platformLimit ?? [];
    const rowKeys = new Set(figures.map((f) => `${f.stacks}x${f.devices}@${f.rate}`));
    expect(codes).toHaveLength(2 * rowKeys.size);
    expect(new Set(codes)).toEqual(new Set(["before", figures[figures.length - 1]?.code]));
  });

  it("name the commit each question's figures measured", () => {
    const guide = betweenMarkers(readFileSync(filesWithMarkers()[0] ?? "", "utf8"));
    expect(guide).toContain(`### How fast is a fleet?\n\nMeasured at commit ${results.fleetsCommit}.`);
    expect(guide).toContain(
      `### How fast is a batch of RPS records?\n\nMeasured at commit ${results.rps?.commit}.`,
    );
    expect(results.fleetsCommit).toMatch(/^[0-9a-f]{7}/);
  });

  it("replace what lies between the markers and nothing else", () => {
    const text = "before\n<!-- bench:table -->\nold\n<!-- /bench:table -->\nafter\n";
    const replaced = replaceBetweenMarkers(text, "new");
    expect(replaced).toBe("before\n<!-- bench:table -->\n\nnew\n\n<!-- /bench:table -->\nafter\n");
    expect(betweenMarkers(replaced)).toBe("new");
    expect(replaceBetweenMarkers(replaced, "new")).toBe(replaced);
  });
});
