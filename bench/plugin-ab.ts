/**
 * `npm run bench:ab -- --before NODE_MODULES --after NODE_MODULES [--devices N] [--runs R]`: two
 * builds of the plugin side by side in one run, for a change's before and after — e.g. the
 * `template/node_modules` of two `npm run bench` work directories, each holding the package packed
 * from its tree. Each build gets a plugin DeviceFleet of N on a platform of its own; then the no-change
 * `preview`, `refresh` and an `up` renaming one device run R times each, alternating between the two
 * builds so that load from elsewhere falls on both. Prints the best and median of each.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { startEmulator, type RunningEmulator } from "../emulator";
import { assertOk, PulumiProject, type CommandResult } from "../test/e2e/support/pulumi-project";
import { prepareToolchain } from "../test/e2e/support/toolchain";
import { fleetDevicesFile, PLUGIN_FLEET_PROGRAM } from "./programs";
import { loadNow } from "./results";

interface Build {
  label: string;
  project: PulumiProject;
  platform: RunningEmulator;
  renamed: boolean;
}

async function build(label: string, nodeModules: string, n: number, workDir: string, pulumiDir: string) {
  const platform = await startEmulator({ control: true });
  const context = { pulumiDir, nodeModules, workDir, emulatorUrl: platform.url };
  const project = await PulumiProject.create(
    {
      name: `ab-${label}`,
      program: PLUGIN_FLEET_PROGRAM,
      pluginPath: path.join(nodeModules, "pulumi-devplatform", "bin"),
    },
    context,
  );
  writeFileSync(path.join(project.dir, "fleet.json"), fleetDevicesFile(n, "24AB"));
  return { label, project, platform, renamed: false };
}

const STEPS: Record<string, (b: Build, n: number) => Promise<CommandResult>> = {
  "preview (no changes)": (b) => b.project.preview({ expectNoChanges: true }),
  refresh: (b) => b.project.refresh(),
  "up (rename one)": (b, n) => {
    // Each run renames device 7 or names it back, so every run changes one device.
    b.renamed = !b.renamed;
    writeFileSync(
      path.join(b.project.dir, "fleet.json"),
      fleetDevicesFile(n, "24AB", b.renamed ? 7 : undefined),
    );
    return b.project.up();
  },
};

const best = (xs: number[]) => Math.min(...xs);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      before: { type: "string" },
      after: { type: "string" },
      devices: { type: "string", default: "10000" },
      runs: { type: "string", default: "3" },
    },
  });
  if (!values.before || !values.after) throw new Error("--before and --after name two node_modules");
  const n = Number(values.devices);
  const runs = Number(values.runs);
  const workDir = mkdtempSync(path.join(tmpdir(), "devplatform-ab-"));
  const { pulumiDir } = prepareToolchain(workDir);
  const builds = [
    await build("before", values.before, n, workDir, pulumiDir),
    await build("after", values.after, n, workDir, pulumiDir),
  ];
  try {
    const load = loadNow();
    for (const b of builds) assertOk(await b.project.up());
    for (const [step, run] of Object.entries(STEPS)) {
      const times: Record<string, number[]> = { before: [], after: [] };
      for (let i = 0; i < runs; i++) {
        for (const b of i % 2 === 0 ? builds : [...builds].reverse()) {
          const started = performance.now();
          assertOk(await run(b, n));
          times[b.label]?.push((performance.now() - started) / 1000);
        }
      }
      const [b, a] = [times.before ?? [], times.after ?? []];
      console.log(
        `${step}, plugin DeviceFleet of ${n}: before best ${best(b).toFixed(1)} s, median ${median(b).toFixed(1)} s; ` +
          `after best ${best(a).toFixed(1)} s, median ${median(a).toFixed(1)} s; after ÷ before (best) ${(best(a) / best(b)).toFixed(2)}`,
      );
    }
    console.log(`load average ${load} → ${loadNow()}`);
    for (const b of builds) assertOk(await b.project.destroy());
  } finally {
    for (const b of builds) await b.platform.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
