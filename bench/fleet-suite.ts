/**
 * DeviceFleet of N against what one engine resource per device can do at best, side by side in
 * one run: N no-op dynamic resources and N Devices, both with `PULUMI_SKIP_CHECKPOINTS=true` (the
 * engine writes their state once, at the end), step by step — create, preview with nothing changed,
 * refresh, an `up` renaming one device, destroy — with the fleet's platform requests and its state
 * size per device. With a latency, also the fleet's `up` against a sequential script adding the same
 * devices one by one, every platform request delayed by that latency.
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { EmulatorControl, startEmulator, type RunningEmulator } from "../emulator";
import {
  assertOk,
  PulumiProject,
  type CommandResult,
  type PulumiContext,
} from "../test/e2e/support/pulumi-project";
import { naiveSequentialAdd } from "./naive-script";
import {
  devicesProgram,
  fleetDevicesFile,
  FLEET_PROGRAM,
  noopProgram,
  PLUGIN_FLEET_PROGRAM,
  SHAPE_FLOOR_PROGRAM,
} from "./programs";
import { writesOf } from "../test/e2e/support/platform-writes";
import {
  FLEET_STEPS,
  loadNow,
  type ContenderKey,
  type FleetSizeFigures,
  type FleetStep as Step,
} from "./results";

const SKIP_CHECKPOINTS = { env: { PULUMI_SKIP_CHECKPOINTS: "true" } };

/** What one contender does at each step. */
interface Contender {
  readonly label: ContenderKey;
  readonly project: PulumiProject;
  /** The platform it talks to, whose counters count its requests. */
  readonly control: EmulatorControl;
  /** Prepares the rename of one device before that step. */
  rename(): void;
  run(step: Step): Promise<CommandResult>;
}

function runner(project: PulumiProject, options = {}) {
  return (step: Step): Promise<CommandResult> => {
    switch (step) {
      case "up (create)":
      case "up (rename one)":
        return project.up(options);
      case "preview (no changes)":
        return project.preview({ expectNoChanges: true }, options);
      case "refresh":
        return project.refresh(options);
      case "destroy":
        return project.destroy(options);
    }
  };
}

async function timed<T>(body: () => Promise<T>): Promise<{ seconds: number; value: T }> {
  const started = performance.now();
  const value = await body();
  return { seconds: (performance.now() - started) / 1000, value };
}

/** The plugin's DeviceFleet of N, through the launcher of the installed package. */
async function pluginFleet(n: number, context: PulumiContext): Promise<Contender> {
  const pluginPath = path.join(context.nodeModules, "pulumi-devplatform", "bin");
  const project = await PulumiProject.create(
    { name: "bench-plugin-fleet", program: PLUGIN_FLEET_PROGRAM, pluginPath },
    context,
  );
  writeFileSync(path.join(project.dir, "fleet.json"), fleetDevicesFile(n, "24F3"));
  return {
    label: "plugin",
    project,
    control: new EmulatorControl(context.emulatorUrl),
    rename: () => writeFileSync(path.join(project.dir, "fleet.json"), fleetDevicesFile(n, "24F3", 7)),
    run: runner(project),
  };
}

async function contenders(
  n: number,
  context: PulumiContext,
  devicesContext: PulumiContext | undefined,
  pluginContext: PulumiContext,
  withNoop: boolean,
): Promise<Contender[]> {
  const fleet = await PulumiProject.create({ name: "bench-fleet", program: FLEET_PROGRAM }, context);
  writeFileSync(path.join(fleet.dir, "fleet.json"), fleetDevicesFile(n, "24F1"));
  const list: Contender[] = [
    {
      label: "dynamic",
      project: fleet,
      control: new EmulatorControl(context.emulatorUrl),
      rename: () => writeFileSync(path.join(fleet.dir, "fleet.json"), fleetDevicesFile(n, "24F1", 7)),
      run: runner(fleet),
    },
    await pluginFleet(n, pluginContext),
  ];
  const shape = await PulumiProject.create({ name: "bench-shape", program: SHAPE_FLOOR_PROGRAM }, context);
  writeFileSync(path.join(shape.dir, "fleet.json"), fleetDevicesFile(n, "24F4"));
  list.push({
    label: "shape",
    project: shape,
    control: new EmulatorControl(context.emulatorUrl),
    rename: () => writeFileSync(path.join(shape.dir, "fleet.json"), fleetDevicesFile(n, "24F4", 7)),
    run: runner(shape),
  });
  if (withNoop) {
    const noop = await PulumiProject.create({ name: "bench-noop-skip", program: noopProgram(n) }, context);
    list.push({
      label: "noop",
      project: noop,
      control: new EmulatorControl(context.emulatorUrl),
      rename: () => noop.setProgram(noopProgram(n, 7)),
      run: runner(noop, SKIP_CHECKPOINTS),
    });
  }
  if (devicesContext) {
    const devices = await PulumiProject.create(
      { name: "bench-devices-skip", program: devicesProgram(n, "24D1") },
      devicesContext,
    );
    list.push({
      label: "devices",
      project: devices,
      control: new EmulatorControl(devicesContext.emulatorUrl),
      rename: () => devices.setProgram(devicesProgram(n, "24D1", 7)),
      run: runner(devices, SKIP_CHECKPOINTS),
    });
  }
  return list;
}

/** Runs the suite; returns the table's rows and the figures. */
export async function measureFleet(
  n: number,
  context: PulumiContext,
  emulator: RunningEmulator,
  options: { latencyMs?: number; withDevices: boolean; withNoop?: boolean },
): Promise<FleetSizeFigures> {
  // The N Devices get a platform of their own: the fleet's refresh pages through its application,
  // which must hold the fleet's devices, not theirs too.
  const devicesPlatform = options.withDevices ? await startEmulator({ control: true }) : undefined;
  const devicesContext = devicesPlatform ? { ...context, emulatorUrl: devicesPlatform.url } : undefined;
  // So does the plugin's fleet: the same N devices in an application of their own.
  const pluginPlatform = await startEmulator({ control: true });
  const pluginContext = { ...context, emulatorUrl: pluginPlatform.url };
  try {
    const all = await contenders(n, context, devicesContext, pluginContext, options.withNoop !== false);
    return await measureSteps(n, context, emulator, all, options);
  } finally {
    await devicesPlatform?.stop();
    await pluginPlatform.stop();
  }
}

async function measureSteps(
  n: number,
  context: PulumiContext,
  emulator: RunningEmulator,
  all: Contender[],
  options: { latencyMs?: number },
): Promise<FleetSizeFigures> {
  const figures: FleetSizeFigures = {
    devices: n,
    load: { start: loadNow(), end: 0 },
    steps: {},
    stateBytesPerDevice: {},
  };
  for (const step of FLEET_STEPS) {
    for (const contender of all) {
      if (step === "up (rename one)") contender.rename();
      await contender.control.resetCounters();
      const { seconds, value } = await timed(() => contender.run(step));
      assertOk(value);
      const { total, byRoute } = await contender.control.counters();
      (figures.steps[step] ??= {})[contender.label] = {
        seconds: Math.round(seconds * 100) / 100,
        requests: total,
        writes: writesOf(byRoute),
      };
      if (step === "up (create)") {
        figures.stateBytesPerDevice[contender.label] = Math.round(
          contender.project.stateFileText().length / n,
        );
      }
      console.log(`  N=${n} ${step}, ${contender.label}: ${seconds.toFixed(1)} s, ${total} requests`);
    }
  }
  figures.load.end = loadNow();
  if (options.latencyMs !== undefined) {
    figures.latency = await measureLatency(n, context, emulator, options.latencyMs);
  }
  return figures;
}

/** The fleet's `up` of N against a sequential script, every platform request delayed by `latencyMs`. */
async function measureLatency(
  n: number,
  context: PulumiContext,
  emulator: RunningEmulator,
  latencyMs: number,
) {
  console.log(`with ${latencyMs} ms a request: DeviceFleet up of ${n} against a sequential script …`);
  const fleet = await PulumiProject.create({ name: "bench-fleet-latency", program: FLEET_PROGRAM }, context);
  writeFileSync(path.join(fleet.dir, "fleet.json"), fleetDevicesFile(n, "24F2"));
  await emulator.control.setFaults({ kinds: ["delay"], delayMs: latencyMs });
  let removeScriptDevices: (() => Promise<void>) | undefined;
  try {
    const up = await timed(() => fleet.up());
    assertOk(up.value);
    const script = await timed(() => naiveSequentialAdd(emulator.url, n, "66F2"));
    removeScriptDevices = script.value;
    return {
      latencyMs,
      fleetUpSeconds: up.seconds,
      scriptSeconds: script.seconds,
      ratio: up.seconds / script.seconds,
    };
  } finally {
    await emulator.control.clearFaults();
    await removeScriptDevices?.();
    assertOk(await fleet.destroy());
  }
}
