/**
 * `npm run bench -- --rps-only` measures the RPS rows alone: results.json keeps the date and the
 * machine's load of the run that measured everything else, and the RPS rows carry their own
 * commit, date and load (bench/results.ts, withRpsRun).
 */
import { describe, expect, it } from "vitest";
import { withRpsRun, type BenchResults, type RpsResults } from "../../../bench/results";

function run(date: string, load: number): BenchResults {
  return {
    date,
    machine: {
      cores: 2,
      cpu: "cpu",
      platform: "linux-x64",
      node: "v22",
      pulumi: "v3",
      load: { start: load, end: load },
    },
    fleets: [],
    fleetsCommit: "aaaaaaa",
  };
}

const rps: RpsResults = {
  commit: "bbbbbbb",
  date: "2026-11-28T20:45:00.000Z",
  load: { start: 6.1, end: 7.4 },
  sizes: [],
};

describe("an --rps-only run", () => {
  it("keeps the file's date, machine load and fleet commit, and gives the RPS rows their own", () => {
    const previous = {
      ...run("2026-11-20T10:00:00.000Z", 1.5),
      fixedCost: { load: { start: 1, end: 1 }, languages: [] },
    };
    const merged = withRpsRun(previous, run("2026-11-28T20:45:00.000Z", 6.1), rps);
    expect(merged.date).toBe("2026-11-20T10:00:00.000Z");
    expect(merged.machine.load).toEqual({ start: 1.5, end: 1.5 });
    expect(merged.fleetsCommit).toBe("aaaaaaa");
    expect(merged.fixedCost).toEqual(previous.fixedCost);
    expect(merged.rps).toEqual(rps);
  });

  it("stands on its own date and machine when there was no file", () => {
    const merged = withRpsRun(undefined, run("2026-11-28T20:45:00.000Z", 6.1), rps);
    expect(merged.date).toBe("2026-11-28T20:45:00.000Z");
    expect(merged.rps?.load).toEqual({ start: 6.1, end: 7.4 });
  });
});
