/**
 * The bench's RPS contenders pace as applications of their own (bench/own-pace.ts): a pace another
 * process of this machine left for the same client id — a rate-limited test beside the bench —
 * reaches a process on the shared pace directory, and not one on a pace directory of its own.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ownPaceEnv } from "../../../bench/own-pace";
import { machinePaceStore } from "../../../provider/platform-access/pace-store";
import { machineMs } from "../../../provider/deployment/machine-clock";
import { initialPaceState } from "../../../sdk";

const saved = process.env.DEVPLATFORM_PACE_DIR;
afterEach(() => {
  if (saved === undefined) delete process.env.DEVPLATFORM_PACE_DIR;
  else process.env.DEVPLATFORM_PACE_DIR = saved;
});

describe("a bench contender's pace", () => {
  it("is not the reduced pace a neighbour with the same client id left on the shared directory", () => {
    process.env.DEVPLATFORM_PACE_DIR = fs.mkdtempSync(path.join(os.tmpdir(), "shared-pace-"));
    machinePaceStore("demo-client").transact((state) => {
      Object.assign(state, { rate: 9, slowStart: false, plateau: 9, decreasedAt: machineMs() });
    });
    expect(machinePaceStore("demo-client").peek().rate).toBe(9);

    const own = ownPaceEnv();
    const again = ownPaceEnv();
    expect(own.DEVPLATFORM_PACE_DIR).not.toBe(again.DEVPLATFORM_PACE_DIR);
    expect(fs.readdirSync(own.DEVPLATFORM_PACE_DIR)).toEqual([]);
    expect(fs.statSync(own.DEVPLATFORM_PACE_DIR).mode & 0o777).toBe(0o700);
    process.env.DEVPLATFORM_PACE_DIR = own.DEVPLATFORM_PACE_DIR;
    expect(machinePaceStore("demo-client").peek()).toEqual(initialPaceState());
  });
});
