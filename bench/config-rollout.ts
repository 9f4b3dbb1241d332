/**
 * Config rollout to N devices: one DeviceConfig through configuration tasks against N
 * single-device DeviceConfigs through PATCH, on the same seeded sensors.
 */
import type { EmulatorControl } from "../emulator";
import { assertOk, PulumiProject, type PulumiContext } from "../test/e2e/support/pulumi-project";
import { configPerDeviceProgram, oneConfigProgram } from "./programs";

export interface RolloutFigures {
  tasks: { seconds: number; requests: number; taskCalls: number };
  patch: { seconds: number; requests: number; patchCalls: number };
}

async function seedSensors(control: EmulatorControl, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const sn = "24C0" + i.toString(16).toUpperCase().padStart(10, "0");
    ids.push((await control.seedDevice({ sn, name: `rollout-${i}` })).deviceId);
  }
  return ids;
}

async function timedUp(project: PulumiProject, control: EmulatorControl) {
  await control.resetCounters();
  const started = performance.now();
  assertOk(await project.up());
  const seconds = (performance.now() - started) / 1000;
  return { seconds, counters: await control.counters() };
}

export async function measureConfigRollout(
  context: PulumiContext,
  control: EmulatorControl,
  count: number,
): Promise<RolloutFigures> {
  const deviceIds = await seedSensors(control, count);
  const one = await PulumiProject.create(
    { name: "bench-rollout-tasks", program: oneConfigProgram(deviceIds) },
    context,
  );
  const each = await PulumiProject.create(
    { name: "bench-rollout-patch", program: configPerDeviceProgram(deviceIds) },
    context,
  );
  const tasks = await timedUp(one, control);
  const patch = await timedUp(each, control);
  assertOk(await one.destroy());
  assertOk(await each.destroy());
  for (const id of deviceIds) await control.deleteDevice(id);
  return {
    tasks: {
      seconds: tasks.seconds,
      requests: tasks.counters.total,
      taskCalls: tasks.counters.byRoute["POST /tasks"] ?? 0,
    },
    patch: {
      seconds: patch.seconds,
      requests: patch.counters.total,
      patchCalls: patch.counters.byRoute["PATCH /devices/{deviceId}/properties"] ?? 0,
    },
  };
}
