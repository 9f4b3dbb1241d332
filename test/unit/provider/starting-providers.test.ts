/**
 * Which of a deployment's provider processes have started but not joined the one-owner record,
 * from the machine's process list as Pulumi's launchers leave it — this package's only: the plugin
 * by its file name or its main module under this package, Pulumi's dynamic provider host only when
 * the program marked the deployment as declaring this package's dynamic resources — and how a
 * delete waits for them: on the machine's monotonic clock, and as for one starting where processes
 * cannot be listed.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { declarationsSettled, resetOwnership } from "../../../provider/guardrails/ownership";
import { startingProviders, type ProcessEntry } from "../../../provider/deployment/starting-providers";

const ENGINE = "127.0.0.1:40123";
const entry = (pid: number, ppid: number, ...args: string[]): ProcessEntry => ({ pid, ppid, args });

/** A package directory with its package.json, as npm installs it. */
function installed(name: string): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "starting-unit-"));
  const dir = path.join(root, "node_modules", name);
  fs.mkdirSync(path.join(dir, "dist", "provider", "plugin"), { recursive: true });
  fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name }));
  return dir;
}
const ours = installed("pulumi-devplatform");
const othersPackage = installed("acme-provider");
const OUR_MAIN = path.join(ours, "dist", "provider", "plugin", "main.js");
const OTHER_MAIN = path.join(othersPackage, "dist", "provider", "plugin", "main.js");

/** One deployment's processes: the CLI, the language host and program, Pulumi's dynamic launcher (sh) and its node, the plugin. */
const processes = [
  entry(100, 1, "pulumi", "up"),
  entry(101, 100, "/opt/pulumi/pulumi-language-nodejs", ENGINE),
  entry(102, 101, "node", "/p/node_modules/@pulumi/pulumi/cmd/run/index.js", "--engine", ENGINE),
  entry(103, 100, "/bin/sh", "/opt/pulumi/pulumi-resource-pulumi-nodejs", ENGINE),
  entry(104, 103, "node", "/p/node_modules/@pulumi/pulumi/cmd/dynamic-provider/index.js", ENGINE),
  entry(105, 100, "/bin/sh", "/p/node_modules/pulumi-devplatform/bin/pulumi-resource-devplatform", ENGINE),
  // Another deployment's plugin, and another package's plugin of this one.
  entry(200, 1, "node", OUR_MAIN, "127.0.0.1:40999"),
  entry(201, 100, "/opt/pulumi/pulumi-resource-aws", ENGINE),
  // Another package whose plugin has the same layout.
  entry(202, 100, "node", OTHER_MAIN, ENGINE),
];

describe("the deployment's starting provider processes", () => {
  it("are this package's launchers and hosts of the engine's address that have not joined", () => {
    expect(startingProviders(processes, ENGINE, new Set(), true)).toEqual([103, 104, 105]);
  });

  it("leave out Pulumi's dynamic provider host unless the program declared this package's dynamic resources", () => {
    // A plugin program with a pulumi.dynamic.Resource of its own: that host never joins.
    expect(startingProviders(processes, ENGINE, new Set(), false)).toEqual([105]);
  });

  it("count as joined when a process they started has (node under Pulumi's sh launcher)", () => {
    expect(startingProviders(processes, ENGINE, new Set([104]), true)).toEqual([105]);
  });

  it("include the plugin once its launcher has exec'd node, until it joins", () => {
    const execd = processes.map((p) => (p.pid === 105 ? entry(105, 100, "node", OUR_MAIN, ENGINE) : p));
    expect(startingProviders(execd, ENGINE, new Set([104]), true)).toEqual([105]);
    expect(startingProviders(execd, ENGINE, new Set([104, 105]), true)).toEqual([]);
  });
});

describe("a delete beside a starting provider process", () => {
  afterEach(() => vi.restoreAllMocks());

  it("waits until it has joined, then for a longer quiet time", async () => {
    resetOwnership();
    let clock = 0;
    let startingFor = 3;
    const waited = declarationsSettled(
      300,
      5_000,
      () => (clock += 50),
      () => startingFor-- > 0,
      15_000,
    );
    await expect(waited).resolves.toBeUndefined();
    expect(startingFor).toBe(-1);
    // Three polls while it starts, then a quiet second from the moment it joined.
    expect(clock).toBeGreaterThanOrEqual(1_000);
  });

  it("gives up waiting for one that never joins after its limit", async () => {
    resetOwnership();
    let clock = 0;
    let polls = 0;
    const waited = declarationsSettled(
      300,
      5_000,
      () => (clock += 1_000),
      () => (polls += 1) > 0,
      15_000,
    );
    await expect(waited).resolves.toBeUndefined();
    expect(polls).toBeLessThanOrEqual(16);
  });

  it("keeps waiting when the wall clock steps forward (the wait goes by the monotonic clock)", async () => {
    resetOwnership();
    let wall = Date.now();
    // An NTP step of an hour at every reading: a wait on the wall clock would end at once.
    vi.spyOn(Date, "now").mockImplementation(() => (wall += 3_600_000));
    let startingFor = 3;
    await declarationsSettled(300, 5_000, undefined, () => startingFor-- > 0, 15_000);
    expect(startingFor).toBe(-1);
  });

  it("waits as for one starting where processes cannot be listed, up to its limit, once per process", async () => {
    resetOwnership();
    let clock = 0;
    let asked = 0;
    const unknown = () => ((asked += 1), undefined);
    await declarationsSettled(300, 5_000, () => (clock += 1_000), unknown, 15_000);
    expect(clock).toBeGreaterThanOrEqual(15_000);
    const pollsOfFirst = asked;
    expect(pollsOfFirst).toBeGreaterThan(1);
    // A later delete of the same process: the bound is spent, so it goes at once.
    await declarationsSettled(300, 5_000, () => (clock += 1_000), unknown, 15_000);
    expect(asked - pollsOfFirst).toBe(1);
  });
});
