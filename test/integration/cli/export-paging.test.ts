/**
 * `devplatform export` against a platform that pages at 7 records whatever is asked, with another
 * writer adding devices between two pages of the device listing: every device and record is
 * exported, with one search per page the platform served.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../../emulator";
import { parseInventory } from "../../../inventory";
import { credentialsFor, runDevplatform } from "./support/run-devplatform";

let emulator: RunningEmulator;
let work: string;

beforeAll(async () => {
  emulator = await startEmulator({ maxPageSize: 7 });
  work = mkdtempSync(path.join(tmpdir(), "devplatform-export-paging-"));
});
afterAll(async () => {
  await emulator.stop();
  rmSync(work, { recursive: true, force: true });
});

const sn = (prefix: string, i: number) => `${prefix}00000000${String(i).padStart(4, "0")}`;

it("exports all 30 devices and 10 records of an application served 7 a page", async () => {
  await emulator.control.seed({
    devices: Array.from({ length: 20 }, (_, i) => ({ sn: sn("2400", i), name: `d${i}` })),
    rpsRecords: Array.from({ length: 10 }, (_, i) => ({
      sn: sn("AC00", 9 - i),
      profileUrl: `https://rps.example.com/${i}`,
    })),
  });
  await emulator.control.interleave({
    route: "POST /devices/search",
    before: 2,
    addDevices: Array.from({ length: 10 }, (_, i) => ({ sn: sn("6600", i), name: `added-${i}` })),
  });
  await emulator.control.resetCounters();
  const out = path.join(work, "paged");
  const run = await runDevplatform(["export", "--out", out, "--style", "devices", "--include-rps"], {
    env: credentialsFor(emulator.url),
  });
  expect(run.code).toBe(0);
  const inventory = parseInventory(readFileSync(path.join(out, "inventory.csv"), "utf8"));
  expect(inventory.map((e) => e.name)).toEqual([
    ...Array.from({ length: 20 }, (_, i) => `d${i}`),
    ...Array.from({ length: 10 }, (_, i) => `added-${i}`),
  ]);
  const rps = readFileSync(path.join(out, "rps.csv"), "utf8").trim().split("\n").slice(1);
  expect(rps.map((line) => line.split(",")[0])).toEqual(Array.from({ length: 10 }, (_, i) => sn("AC00", i)));
  const { byRoute } = await emulator.control.counters();
  // 30 devices at 7 a page: 5 searches (page 1 said 20, the others 30); 10 records: 2.
  expect(byRoute["POST /devices/search"]).toBe(5);
  expect(byRoute["POST /rps/search"]).toBe(2);
});
