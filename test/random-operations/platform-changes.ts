/**
 * Changes that do not come from the main stack's program: the second stack's own fleet (other
 * serial numbers, same application), and out-of-band changes made on the platform directly through
 * the emulator's control API, as a person with the console would.
 */
import type { EmulatorControl } from "../../emulator";
import type { Model } from "./model";
import type { SecondChange, Step } from "./steps";
import { cloneWorld, declaredDevices, otherFront, POOL_SIZE, secondSerial, type World } from "./world";

/**
 * The second stack's next world: a device added to, removed from or renamed in its one fleet, or
 * the fleet moved to the other front-end (its own deployment's record, beside the main stack's).
 */
export function applySecondChange(before: World, change: SecondChange): World {
  const world = cloneWorld(before);
  const fleet = world.fleets[0];
  if (!fleet) return world;
  if (change.kind === "move") {
    fleet.front = otherFront(fleet.front);
    return world;
  }
  const target = fleet.devices[change.pick % Math.max(1, fleet.devices.length)];
  if (change.kind === "add" || !target) {
    const used = new Set(fleet.devices.map((d) => d.sn));
    const free = Array.from({ length: POOL_SIZE }, (_, i) => secondSerial(i)).filter((sn) => !used.has(sn));
    const sn = free[change.pick % Math.max(1, free.length)];
    if (sn) fleet.devices.push({ sn, name: `other-n${change.name}` });
  } else if (change.kind === "remove") fleet.devices = fleet.devices.filter((d) => d !== target);
  else target.name = `other-n${change.name}`;
  return world;
}

/**
 * Renames, retags or deletes one of the main stack's devices on the platform, out of band; a
 * deleted device's serial number goes into `exempt` (its next deviceId is rightly new).
 */
export async function outOfBand(
  control: EmulatorControl,
  model: Readonly<Model>,
  step: Extract<Step, { kind: "out-of-band" }>,
  exempt: Set<string>,
): Promise<string> {
  const declared = declaredDevices(model.main);
  const target = declared[step.pick % declared.length];
  if (!target) return "nothing to change";
  const sn = target.decl.sn.toUpperCase();
  const device = (await control.state()).devices.find((d) => d.sn.toUpperCase() === sn);
  if (!device) return `${sn} not on the platform`;
  switch (step.action) {
    case "rename":
      await control.changeDevice(device.deviceId, { name: `oob-${step.name}` });
      return `renamed ${sn} out of band`;
    case "retag":
      await control.changeDevice(device.deviceId, { tag: ["oob"] });
      return `retagged ${sn} out of band`;
    case "delete":
      await control.deleteDevice(device.deviceId);
      exempt.add(sn);
      return `deleted ${sn} (deviceId ${device.deviceId}) out of band`;
  }
}
