/**
 * `npm run bench [-- --devices N] [--latency MS] [--fleet-only] [--no-devices-baseline]
 * [--no-noop-baseline] [--plugin-start-only]`: the
 * provider measured side by side, in one run, against the Pulumi engine's own floor and against
 * the script a user would otherwise write. First the plugin's start (plugin-start.ts: the release
 * executable against the npm launcher; alone with `--plugin-start-only`), then a DeviceFleet of N against N no-op resources and N
 * Devices with skipped checkpoints (fleet-suite.ts); then, for N up to 2,000 and unless
 * `--fleet-only`, N Devices against N no-op resources with the engine's default checkpoints, a
 * configuration rollout and a plain script. Prints a table and writes bench/results.json. Figures
 * are whole-step wall times on this machine: read the ratios.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { startEmulator, type RunningEmulator } from "../emulator";
import {
  assertOk,
  PulumiProject,
  type CommandResult,
  type PulumiContext,
} from "../test/e2e/support/pulumi-project";
import { prepareToolchain } from "../test/e2e/support/toolchain";
import { measureConfigRollout } from "./config-rollout";
import { measureEmulatorThroughput } from "./emulator-throughput";
import { measureFleet } from "./fleet-suite";
import { naiveSequentialAdd } from "./naive-script";
import { archiveExecutable, measurePluginStart } from "./plugin-start";
import { samplePeakMemory } from "./process-memory";
import { devicesProgram, noopProgram } from "./programs";
import { printTable, type Row } from "./table";

/** Above this N, one engine resource per device with checkpoints takes hours: that suite is skipped. */
const MAX_CHECKPOINTED_RESOURCES = 2_000;

const STEPS = ["up (create)", "preview (no changes)", "up (no changes)", "refresh", "destroy"] as const;
type StepName = (typeof STEPS)[number];

interface StepFigures {
  seconds: number;
  requests?: number;
}

function runStep(project: PulumiProject, step: StepName): Promise<CommandResult> {
  switch (step) {
    case "up (create)":
    case "up (no changes)":
      return project.up();
    case "preview (no changes)":
      return project.preview({ expectNoChanges: true });
    case "refresh":
      return project.refresh();
    case "destroy":
      return project.destroy();
  }
}

async function timed<T>(body: () => Promise<T>): Promise<{ seconds: number; value: T }> {
  const started = performance.now();
  const value = await body();
  return { seconds: (performance.now() - started) / 1000, value };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      devices: { type: "string", default: "200" },
      latency: { type: "string" },
      "fleet-only": { type: "boolean", default: false },
      "no-devices-baseline": { type: "boolean", default: false },
      "no-noop-baseline": { type: "boolean", default: false },
      "plugin-start-only": { type: "boolean", default: false },
    },
  });
  const n = Number(values.devices);
  if (!Number.isInteger(n) || n < 1)
    throw new Error(`--devices must be a positive whole number, got ${values.devices}`);
  const latencyMs = values.latency === undefined ? undefined : Number(values.latency);
  if (latencyMs !== undefined && (!Number.isInteger(latencyMs) || latencyMs < 0))
    throw new Error(`--latency must be a whole number of milliseconds, got ${values.latency}`);
  // One engine resource per device with the engine's default checkpoints is quadratic in N.
  const engineFloorSuite = !values["fleet-only"] && n <= MAX_CHECKPOINTED_RESOURCES;

  const workDir = mkdtempSync(path.join(tmpdir(), "devplatform-bench-"));
  console.log(`preparing the toolchain in ${workDir} …`);
  const toolchain = prepareToolchain(workDir);
  const emulator = await startEmulator({ control: true });
  const context = { ...toolchain, workDir, emulatorUrl: emulator.url };
  const results: Record<string, unknown> = { devices: n, date: new Date().toISOString() };
  const rows: Row[] = [];

  try {
    console.log("plugin start, exec → port line: the archive's executable against the npm launcher …");
    const launcher = path.join(toolchain.nodeModules, ".bin", "pulumi-resource-devplatform");
    const start = await measurePluginStart(archiveExecutable(workDir), launcher);
    results.pluginStart = start.figures;
    rows.push(start.row);
    if (values["plugin-start-only"]) return finish(results, rows);
    console.log(
      `DeviceFleet of ${n} against ${n} no-op resources and ${n} Devices with skipped checkpoints …`,
    );
    const fleet = await measureFleet(n, context, emulator, {
      latencyMs,
      withDevices: !values["no-devices-baseline"],
      withNoop: !values["no-noop-baseline"],
    });
    results.fleet = fleet.figures;
    rows.push(...fleet.rows);
    if (engineFloorSuite) await measureEngineFloorSuite(n, context, emulator, results, rows);
    else {
      console.log(
        `(N Devices with checkpoints, the rollout and the script comparison run for N ≤ ${MAX_CHECKPOINTED_RESOURCES} without --fleet-only)`,
      );
    }
  } finally {
    await emulator.stop();
  }
  finish(results, rows);
}

/** Prints the table and writes bench/results.json. */
function finish(results: Record<string, unknown>, rows: Row[]): void {
  printTable(rows);
  const file = path.join(__dirname, "results.json");
  writeFileSync(file, JSON.stringify(results, null, 2) + "\n");
  console.log(`\nwritten to ${path.relative(process.cwd(), file)}`);
}

/** N Devices against N no-op resources (default checkpoints), a config rollout, a script, the emulator. */
async function measureEngineFloorSuite(
  n: number,
  context: PulumiContext,
  emulator: RunningEmulator,
  results: Record<string, unknown>,
  rows: Row[],
): Promise<void> {
  console.log(`engine floor: ${n} Devices against ${n} no-op dynamic resources, step by step …`);
  const devices = await PulumiProject.create(
    { name: "bench-devices", program: devicesProgram(n, "24BE") },
    context,
  );
  const noop = await PulumiProject.create({ name: "bench-noop", program: noopProgram(n) }, context);
  const figures: Record<string, { devices: StepFigures; noop: StepFigures }> = {};
  let providerPeakMiB = 0;
  let stateBytesPerResource = 0;
  let providerBytes = 0;
  for (const step of STEPS) {
    await emulator.control.resetCounters();
    const memory = samplePeakMemory();
    const a = await timed(() => runStep(devices, step));
    providerPeakMiB = Math.max(providerPeakMiB, memory.stop());
    assertOk(a.value);
    const requests = (await emulator.control.counters()).total;
    if (step === "up (create)") {
      const stack = await devices.exportStack();
      const resources = stack.deployment.resources ?? [];
      stateBytesPerResource = Math.round(devices.stateFileText().length / Math.max(1, resources.length));
      const provider = resources.find((r) => r.type.endsWith(":Device"))?.outputs?.__provider;
      providerBytes = typeof provider === "string" ? provider.length : 0;
    }
    const b = await timed(() => runStep(noop, step));
    assertOk(b.value);
    figures[step] = { devices: { seconds: a.seconds, requests }, noop: { seconds: b.seconds } };
    rows.push({
      measure: `${step}, ${n} resources`,
      provider: `${a.seconds.toFixed(1)} s`,
      baseline: `${b.seconds.toFixed(1)} s (no-op)`,
      ratio: (a.seconds / b.seconds).toFixed(2),
      requests: String(requests),
    });
    console.log(`  ${step}: ${a.seconds.toFixed(1)} s vs ${b.seconds.toFixed(1)} s, ${requests} requests`);
  }
  results.engineFloor = figures;
  results.stateBytesPerResource = stateBytesPerResource;
  results.serializedProviderBytes = providerBytes;
  results.dynamicProviderPeakMiB = providerPeakMiB;
  rows.push({
    measure: "state bytes per resource (file backend)",
    provider: String(stateBytesPerResource),
  });
  rows.push({
    measure: "serialized provider bytes per resource (×2: inputs and outputs)",
    provider: String(providerBytes),
  });
  rows.push({ measure: "dynamic provider process peak RSS", provider: `${providerPeakMiB} MiB` });

  console.log(
    `config rollout to ${n} devices: one DeviceConfig (tasks) against ${n} DeviceConfigs (PATCH) …`,
  );
  const rollout = await measureConfigRollout(context, emulator.control, n);
  results.configRollout = rollout;
  rows.push({
    measure: `config rollout to ${n} devices: 1 DeviceConfig (tasks) vs ${n} (PATCH)`,
    provider: `${rollout.tasks.seconds.toFixed(1)} s`,
    baseline: `${rollout.patch.seconds.toFixed(1)} s (PATCH each)`,
    ratio: (rollout.tasks.seconds / rollout.patch.seconds).toFixed(2),
    requests: `${rollout.tasks.requests} (${rollout.tasks.taskCalls} task calls) vs ${rollout.patch.requests} (${rollout.patch.patchCalls} PATCH)`,
  });

  console.log(`naive baseline: a sequential script adding ${n} devices one by one, against pulumi up …`);
  await emulator.control.resetCounters();
  const naive = await timed(() => naiveSequentialAdd(emulator.url, n, "66BE"));
  const naiveRequests = (await emulator.control.counters()).total;
  await naive.value();
  const upSeconds = figures["up (create)"]?.devices.seconds ?? 0;
  results.naive = { seconds: naive.seconds, requests: naiveRequests, pulumiUpSeconds: upSeconds };
  rows.push({
    measure: `add ${n} devices: pulumi up vs sequential script`,
    provider: `${upSeconds.toFixed(1)} s`,
    baseline: `${naive.seconds.toFixed(1)} s (script)`,
    ratio: (upSeconds / naive.seconds).toFixed(2),
    requests: `${figures["up (create)"]?.devices.requests} vs ${naiveRequests}`,
  });

  console.log("emulator throughput (Query a Specific Device, 50 connections, 5 s) …");
  const throughput = await measureEmulatorThroughput(emulator.url);
  results.emulatorRequestsPerSecond = throughput;
  rows.push({ measure: "emulator: Query a Specific Device", provider: `${throughput} req/s` });
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
