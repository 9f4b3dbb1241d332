/**
 * What an export costs: requests (from the emulator's counters) and seconds (the CLI's own summary
 * and the wall clock of the child process) for 250 and 5,000 devices, with and without
 * --include-config. The figures are printed; the request counts are asserted.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../../emulator";
import { seedFleet } from "./support/fleet-fixture";
import { credentialsFor, runDevplatform } from "./support/run-devplatform";

let emulator: RunningEmulator;
let work: string;
const figures: string[] = [];

beforeAll(async () => {
  emulator = await startEmulator();
  work = mkdtempSync(path.join(tmpdir(), "devplatform-export-figures-"));
});
afterAll(async () => {
  console.log(
    [
      "devplatform export figures (emulator on loopback, CLI as a child process):",
      "  devices  config  requests  export s  process s",
      ...figures,
    ].join("\n"),
  );
  await emulator.stop();
  rmSync(work, { recursive: true, force: true });
});

describe.each([250, 5000])("an application of %i devices", (count) => {
  beforeAll(async () => {
    await emulator.control.reset();
    await seedFleet(emulator.control, count);
  }, 120_000);

  it.each([false, true])(
    "--include-config %s",
    async (includeConfig) => {
      await emulator.control.resetCounters();
      const out = path.join(work, `${count}-${includeConfig}`);
      const started = performance.now();
      const run = await runDevplatform(
        ["export", "--out", out, "--style", "devices", ...(includeConfig ? ["--include-config"] : [])],
        { env: credentialsFor(emulator.url) },
      );
      const processSeconds = (performance.now() - started) / 1000;
      expect(run.code).toBe(0);
      const counters = await emulator.control.counters();
      const searches = Math.ceil(count / 100);
      expect(counters.byRoute["POST /devices/search"]).toBe(searches);
      expect(counters.total).toBe(1 + searches + (includeConfig ? 2 * count : 0));
      const seconds = /Exported in ([\d.]+) s/.exec(run.stdout)?.[1] ?? "?";
      figures.push(
        `  ${String(count).padStart(7)}  ${String(includeConfig).padEnd(6)}  ${String(counters.total).padStart(8)}` +
          `  ${seconds.padStart(8)}  ${processSeconds.toFixed(1).padStart(9)}`,
      );
    },
    300_000,
  );
});
