/**
 * `npm run bench:pacing -- [--before ROOT] [--devices N] [--runs R] [--plugin]`: what the pacing
 * costs where the platform never refuses, side by side in one run. A dynamic DeviceFleet of N
 * (default 10,000) against an emulator without a limit — `up`, then `refresh` — with pacing on
 * (this tree), pacing off (this tree, `DEVPLATFORM_PACING=off`), and, with `--before`, the tree at
 * ROOT (a checkout of an earlier commit, built and packed here); `--plugin` adds the plugin fleet,
 * on and off. Beside them the engine's floor: N no-op dynamic resources. Each round runs every
 * contender once, in an order rotated by round, so load from elsewhere falls on all; prints each
 * one's best and median and its ratio to the floor's. Not in CI: a 10,000 `up` takes tens of seconds.
 *
 * Each contender's commands get a pace directory of their own (own-pace.ts), fresh at its `up`: the
 * `up` is the first command on the machine, and pays the slow start's climb; its `refresh` is a
 * later one, which starts where the `up` got (the SDK's proven-rate.ts). `pacing on, remembered`
 * runs its `up` too as a later command: its pace directory holds the least rate a command that
 * proved one leaves (FREE_START_RATE a second, just now).
 */
import { writeFileSync } from "node:fs";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { startEmulator } from "../emulator";
import {
  assertOk,
  E2E_CREDENTIALS,
  PulumiProject,
  type PulumiContext,
} from "../test/e2e/support/pulumi-project";
import { prepareToolchain, removeWorkDir } from "../test/e2e/support/toolchain";
import { installTree } from "./platform-limit";
import { fleetDevicesFile, FLEET_PROGRAM, noopProgram, PLUGIN_FLEET_PROGRAM } from "./programs";
import { loadNow } from "./results";
import { ownPaceEnv } from "./own-pace";
import { FREE_START_RATE } from "../sdk";
import { machinePaceStore } from "../provider/platform-access/pace-store";

const SKIP_CHECKPOINTS = { PULUMI_SKIP_CHECKPOINTS: "true" };

interface Contender {
  readonly label: string;
  readonly nodeModules: string;
  readonly program: (n: number) => string;
  readonly plugin: boolean;
  readonly env: Record<string, string>;
  readonly steps: readonly ("up" | "refresh")[];
  /** Its pace directory holds a rate an earlier command proved (see above). */
  readonly remembered?: boolean;
}

/** A fresh pace directory for one contender's commands; one where a command proved a rate, when asked. */
function paceEnv(remembered: boolean): { DEVPLATFORM_PACE_DIR: string } {
  const env = ownPaceEnv();
  if (remembered) {
    const before = process.env.DEVPLATFORM_PACE_DIR;
    process.env.DEVPLATFORM_PACE_DIR = env.DEVPLATFORM_PACE_DIR;
    try {
      machinePaceStore(E2E_CREDENTIALS.clientId).remember(FREE_START_RATE);
    } finally {
      if (before === undefined) delete process.env.DEVPLATFORM_PACE_DIR;
      else process.env.DEVPLATFORM_PACE_DIR = before;
    }
  }
  return env;
}

async function runOnce(contender: Contender, n: number, base: Omit<PulumiContext, "emulatorUrl">) {
  const platform = await startEmulator({ control: true });
  try {
    const context = { ...base, nodeModules: contender.nodeModules, emulatorUrl: platform.url };
    const project = await PulumiProject.create(
      {
        name: `pacing-${contender.label.replace(/[^a-z0-9]+/g, "-")}`,
        program: contender.program(n),
        ...(contender.plugin
          ? { pluginPath: path.join(contender.nodeModules, "pulumi-devplatform", "bin") }
          : {}),
      },
      context,
    );
    writeFileSync(path.join(project.dir, "fleet.json"), fleetDevicesFile(n, "24AC"));
    const env = { ...SKIP_CHECKPOINTS, ...paceEnv(contender.remembered ?? false), ...contender.env };
    const seconds: Record<string, number> = {};
    for (const step of contender.steps) {
      const started = performance.now();
      assertOk(step === "up" ? await project.up({ env }) : await project.refresh({ env }));
      seconds[step] = (performance.now() - started) / 1000;
    }
    return seconds;
  } finally {
    await platform.stop();
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      before: { type: "string" },
      devices: { type: "string", default: "10000" },
      runs: { type: "string", default: "2" },
      plugin: { type: "boolean", default: false },
    },
  });
  const n = Number(values.devices);
  const runs = Number(values.runs);
  const workDir = mkdtempSync(path.join(tmpdir(), "bench-pacing-"));
  try {
    const { pulumiDir, nodeModules } = prepareToolchain(workDir);
    const fleet = () => FLEET_PROGRAM;
    const both = ["up", "refresh"] as const;
    const contenders: Contender[] = [
      { label: "floor (no-op)", nodeModules, program: noopProgram, plugin: false, env: {}, steps: ["up"] },
      { label: "dynamic, pacing on", nodeModules, program: fleet, plugin: false, env: {}, steps: both },
      {
        label: "dynamic, pacing on, remembered",
        nodeModules,
        program: fleet,
        plugin: false,
        env: {},
        steps: both,
        remembered: true,
      },
      {
        label: "dynamic, pacing off",
        nodeModules,
        program: fleet,
        plugin: false,
        env: { DEVPLATFORM_PACING: "off" },
        steps: both,
      },
    ];
    if (values.before !== undefined) {
      const before = installTree(values.before, workDir, "before");
      contenders.push({
        label: "dynamic, before",
        nodeModules: before,
        program: fleet,
        plugin: false,
        env: {},
        steps: both,
      });
    }
    if (values.plugin) {
      const plugin = () => PLUGIN_FLEET_PROGRAM;
      contenders.push(
        { label: "plugin, pacing on", nodeModules, program: plugin, plugin: true, env: {}, steps: both },
        {
          label: "plugin, pacing on, remembered",
          nodeModules,
          program: plugin,
          plugin: true,
          env: {},
          steps: both,
          remembered: true,
        },
        {
          label: "plugin, pacing off",
          nodeModules,
          program: plugin,
          plugin: true,
          env: { DEVPLATFORM_PACING: "off" },
          steps: both,
        },
      );
    }
    const figures = new Map<string, Record<string, number[]>>();
    const loads: number[] = [];
    for (let round = 0; round < runs; round += 1) {
      const order = contenders.map((_, i) => contenders[(i + round) % contenders.length] as Contender);
      for (const contender of order) {
        loads.push(loadNow());
        const seconds = await runOnce(contender, n, { pulumiDir, nodeModules, workDir });
        const mine = figures.get(contender.label) ?? {};
        for (const [step, s] of Object.entries(seconds)) (mine[step] ??= []).push(s);
        figures.set(contender.label, mine);
        console.log(`round ${round + 1}: ${contender.label}: ${JSON.stringify(seconds)}`);
      }
    }
    const best = (xs: number[]) => Math.min(...xs);
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)] as number;
    const floor = best(figures.get("floor (no-op)")?.up ?? [Number.NaN]);
    console.log(
      `\n${n} devices, ${runs} rounds, load ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)}`,
    );
    console.log("| contender | up best (median) s | ÷ floor | refresh best (median) s |\n|---|---|---|---|");
    for (const [label, steps] of figures) {
      const up = steps.up ?? [];
      const refresh = steps.refresh;
      console.log(
        `| ${label} | ${best(up).toFixed(1)} (${median(up).toFixed(1)}) | ${(best(up) / floor).toFixed(3)} | ` +
          `${refresh ? `${best(refresh).toFixed(1)} (${median(refresh).toFixed(1)})` : "—"} |`,
      );
    }
  } finally {
    removeWorkDir(workDir);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
