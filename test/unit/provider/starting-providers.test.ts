/**
 * Which of a deployment's provider processes have started but not joined the one-owner record,
 * from the machine's process list as Pulumi's launchers leave it, and how a delete waits for them.
 */
import { describe, expect, it } from "vitest";
import { declarationsSettled, resetOwnership } from "../../../provider/runtime/ownership";
import { startingProviders, type ProcessEntry } from "../../../provider/runtime/starting-providers";

const ENGINE = "127.0.0.1:40123";
const entry = (pid: number, ppid: number, ...args: string[]): ProcessEntry => ({ pid, ppid, args });

/** One deployment's processes: the CLI, the language host and program, Pulumi's dynamic launcher (sh) and its node, the plugin. */
const processes = [
  entry(100, 1, "pulumi", "up"),
  entry(101, 100, "/opt/pulumi/pulumi-language-nodejs", ENGINE),
  entry(102, 101, "node", "/p/node_modules/@pulumi/pulumi/cmd/run/index.js", "--engine", ENGINE),
  entry(103, 100, "/bin/sh", "/opt/pulumi/pulumi-resource-pulumi-nodejs", ENGINE),
  entry(104, 103, "node", "/p/node_modules/@pulumi/pulumi/cmd/dynamic-provider/index.js", ENGINE),
  entry(105, 100, "/bin/sh", "/p/node_modules/pulumi-devplatform/bin/pulumi-resource-devplatform", ENGINE),
  // Another deployment's plugin, and another package's plugin of this one.
  entry(200, 1, "node", "/q/node_modules/pulumi-devplatform/dist/provider/plugin/main.js", "127.0.0.1:40999"),
  entry(201, 100, "/opt/pulumi/pulumi-resource-aws", ENGINE),
];

describe("the deployment's starting provider processes", () => {
  it("are this package's launchers and hosts of the engine's address that have not joined", () => {
    expect(startingProviders(processes, ENGINE, new Set())).toEqual([103, 104, 105]);
  });

  it("count as joined when a process they started has (node under Pulumi's sh launcher)", () => {
    expect(startingProviders(processes, ENGINE, new Set([104]))).toEqual([105]);
  });

  it("include the plugin once its launcher has exec'd node, until it joins", () => {
    const execd = processes.map((p) =>
      p.pid === 105
        ? entry(105, 100, "node", "/p/node_modules/pulumi-devplatform/dist/provider/plugin/main.js", ENGINE)
        : p,
    );
    expect(startingProviders(execd, ENGINE, new Set([104]))).toEqual([105]);
    expect(startingProviders(execd, ENGINE, new Set([104, 105]))).toEqual([]);
  });
});

describe("a delete beside a starting provider process", () => {
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
});
