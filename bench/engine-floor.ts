/**
 * For N up to 2,000: N Devices against N no-op resources, both with the engine's default
 * checkpoints (state rewritten at every step), a configuration rollout to N devices, a plain script
 * adding them one by one, and the emulator's own throughput.
 */
import type { RunningEmulator } from "../emulator";
import {
  assertOk,
  PulumiProject,
  type CommandResult,
  type PulumiContext,
} from "../test/e2e/support/pulumi-project";
import { measureConfigRollout } from "./config-rollout";
import { measureEmulatorThroughput } from "./emulator-throughput";
import { naiveSequentialAdd } from "./naive-script";
import { samplePeakMemory } from "./process-memory";
import { devicesProgram, noopProgram } from "./programs";
import type { Row } from "./table";

/** Above this N, one engine resource per device with checkpoints takes hours: that suite is skipped. */
export const MAX_CHECKPOINTED_RESOURCES = 2_000;

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

/** N Devices against N no-op resources (default checkpoints), a config rollout, a script, the emulator. */
export async function measureEngineFloorSuite(
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
