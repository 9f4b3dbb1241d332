/**
 * `npm run bench:profile [-- --devices N] [--grpc]`: where a fleet's `up`, no-change `preview` and
 * `refresh` spend their time, through both front-ends. Each step runs once with the engine's own
 * CPU profile (`pulumi --profiling`) and Node's `--cpu-prof` in every Node process of the run (the
 * language host's program, the dynamic provider's host, the plugin's launcher), and writes the
 * state file's bytes; with `--grpc`, each step runs again with `PULUMI_DEBUG_GRPC` so that every
 * gRPC message between engine, program and provider is logged with its size (a run of its own: the
 * log's own cost would fall on the profile). Prints the summary of profile-summary.ts; the raw
 * profiles stay in the printed directory for `go tool pprof` and Chrome's DevTools.
 */
import { mkdirSync, mkdtempSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { startEmulator } from "../emulator";
import { assertOk, PulumiProject, type PulumiContext } from "../test/e2e/support/pulumi-project";
import { prepareToolchain } from "../test/e2e/support/toolchain";
import { grpcSummary, nodeProfileSummary, pprofSummary } from "./profile-summary";
import { fleetDevicesFile, FLEET_PROGRAM, PLUGIN_FLEET_PROGRAM } from "./programs";
import { loadNow } from "./results";

const STEPS = {
  "up (create)": ["up", "--yes", "--skip-preview"],
  "preview (no changes)": ["preview", "--expect-no-changes"],
  refresh: ["refresh", "--yes", "--skip-preview"],
} as const;

async function door(
  label: "dynamic" | "plugin",
  n: number,
  context: PulumiContext,
  outDir: string,
  grpc: boolean,
): Promise<void> {
  const platform = await startEmulator({ control: true });
  // The engine ends a provider with SIGINT (then SIGKILL): exit on it, so Node writes the profile.
  const preload = path.join(outDir, "exit-on-signal.cjs");
  mkdirSync(outDir, { recursive: true });
  writeFileSync(preload, 'for (const s of ["SIGINT", "SIGTERM"]) process.on(s, () => process.exit(0));\n');
  try {
    const own = { ...context, emulatorUrl: platform.url };
    const project = await PulumiProject.create(
      label === "dynamic"
        ? { name: "profile-fleet", program: FLEET_PROGRAM }
        : {
            name: "profile-plugin-fleet",
            program: PLUGIN_FLEET_PROGRAM,
            pluginPath: path.join(context.nodeModules, "pulumi-devplatform", "bin"),
          },
      own,
    );
    writeFileSync(path.join(project.dir, "fleet.json"), fleetDevicesFile(n, "24E1"));
    for (const [step, args] of Object.entries(STEPS)) {
      const dir = path.join(outDir, `${label}-${step.split(" ")[0] ?? step}`);
      mkdirSync(dir, { recursive: true });
      const loadBefore = loadNow();
      const started = performance.now();
      assertOk(
        await project.cli([...args, "--profiling", path.join(dir, "engine")], {
          env: { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${dir} --require ${preload}` },
        }),
      );
      const seconds = (performance.now() - started) / 1000;
      console.log(
        `\n## ${label} DeviceFleet of ${n}, ${step}: ${seconds.toFixed(1)} s (load ${loadBefore} → ${loadNow()})`,
      );
      if (step === "up (create)") console.log(`state file: ${project.stateFileText().length} bytes`);
      for (const file of readdirSync(dir).filter((f) => f.endsWith(".cpu")))
        console.log(pprofSummary(path.join(dir, file)));
      for (const file of readdirSync(dir).filter((f) => f.endsWith(".cpuprofile")))
        console.log(nodeProfileSummary(path.join(dir, file)));
      if (grpc && step !== "up (create)") {
        const log = path.join(dir, "grpc.json");
        assertOk(await project.cli([...args], { env: { PULUMI_DEBUG_GRPC: log } }));
        console.log(`gRPC log (${(statSync(log).size / 2 ** 20).toFixed(1)} MiB), a run of its own:`);
        console.log(grpcSummary(log));
      }
    }
    assertOk(await project.destroy());
  } finally {
    await platform.stop();
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      devices: { type: "string", default: "10000" },
      grpc: { type: "boolean", default: false },
      door: { type: "string" },
    },
  });
  const n = Number(values.devices);
  const workDir = mkdtempSync(path.join(tmpdir(), "devplatform-profile-"));
  console.log(`profiles under ${workDir}`);
  const toolchain = prepareToolchain(workDir);
  const context = { ...toolchain, workDir, emulatorUrl: "" };
  for (const label of ["dynamic", "plugin"] as const) {
    if (values.door === undefined || values.door === label)
      await door(label, n, context, path.join(workDir, "profiles"), values.grpc);
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
