/**
 * A DeviceFleet of 2,000 devices on the real Pulumi CLI against the emulator: create, preview with
 * no changes, rename one (1 PUT), an out-of-band delete found by refresh and repaired, remove 3
 * (3 DELETE), move one serial number from the fleet to a Device in one `up` (0 DELETE, 0 add),
 * destroy. Request counts come from the emulator's counters.
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { EmulatorControl } from "../../emulator";
import { deviceFleetProgram, serialNumbers, type FleetDeviceSpec } from "./support/fleet-programs";
import { createProject } from "./support/e2e-project";
import { assertOk, resourcesOfType, type CommandResult, type PulumiProject } from "./support/pulumi-project";
import { writesOf } from "./support/platform-writes";
import { e2e } from "./support/e2e-context";

const FLEET = "pulumi-nodejs:dynamic/devplatform:DeviceFleet";
const DEVICE = "pulumi-nodejs:dynamic/devplatform:Device";
const COUNT = 2_000;

describe(`a DeviceFleet of ${COUNT} devices`, () => {
  let control: EmulatorControl;
  let project: PulumiProject;
  let devices: FleetDeviceSpec[];
  const figures: Record<string, { requests: number; writes: Record<string, number>; seconds: number }> = {};

  function writeFleet(list: FleetDeviceSpec[]): void {
    writeFileSync(path.join(project.dir, "fleet.json"), JSON.stringify(list));
  }

  /** Runs a step, recording its requests, its writes by route and its duration. */
  async function step(label: string, run: () => Promise<CommandResult>): Promise<CommandResult> {
    await control.resetCounters();
    const started = performance.now();
    const result = assertOk(await run());
    const { byRoute, total } = await control.counters();
    const writes = writesOf(byRoute);
    figures[label] = { requests: total, writes, seconds: (performance.now() - started) / 1000 };
    return result;
  }

  async function fleetOnPlatform(list: FleetDeviceSpec[]) {
    const wanted = new Set(list.map((d) => d.sn));
    return (await control.state()).devices.filter((d) => wanted.has(d.sn));
  }

  async function stateIds(): Promise<Record<string, string>> {
    const [fleet] = resourcesOfType(await project.exportStack(), FLEET);
    return (fleet?.outputs?.deviceIds ?? {}) as Record<string, string>;
  }

  beforeAll(async () => {
    control = new EmulatorControl(e2e().emulatorUrl);
    devices = serialNumbers(COUNT, "24").map((sn, i) => ({ sn, name: `fleet-${i}`, tags: ["e2e", "fleet"] }));
    project = await createProject({ name: "device-fleet", program: deviceFleetProgram("site-a") });
    writeFleet(devices);
  });

  it("creates every device with one add each, and says so in the preview", async () => {
    const preview = assertOk(await project.preview());
    expect(preview.output).toContain(`DeviceFleet site-a: ${COUNT.toLocaleString("en-US")} to add`);
    const up = await step("up (create)", () => project.up());
    expect(up.changes.create).toBe(2); // the stack and the fleet
    expect(figures["up (create)"]?.writes).toEqual({ "POST /devices": COUNT });
    const onPlatform = await fleetOnPlatform(devices);
    expect(onPlatform).toHaveLength(COUNT);
    const ids = await stateIds();
    expect(onPlatform.every((d) => ids[d.sn] === d.deviceId)).toBe(true);
  });

  it("previews no changes, with no platform request", async () => {
    await step("preview, no changes", () => project.preview({ expectNoChanges: true }));
    expect(figures["preview, no changes"]?.requests).toBe(0);
  });

  it("renames one device with exactly one PUT, shown in the preview message", async () => {
    const renamed = devices.map((d, i) => (i === 3 ? { ...d, name: "fleet-3-renamed" } : d));
    writeFleet(renamed);
    const preview = assertOk(await project.preview());
    expect(preview.output).toContain(
      `DeviceFleet site-a: 1 to update (${devices[3]?.sn}: name "fleet-3" → "fleet-3-renamed"), 1,999 unchanged`,
    );
    await step("up (rename one)", () => project.up());
    expect(figures["up (rename one)"]?.writes).toEqual({ "PUT /devices": 1 });
    devices = renamed;
  });

  it("finds an out-of-band delete by refresh, with a paged search, and the next up adds it again", async () => {
    const [gone] = await fleetOnPlatform(devices.slice(10, 11));
    if (!gone) throw new Error("device not found");
    await control.deleteDevice(gone.deviceId);
    const refresh = await step("refresh (1 deleted out of band)", () => project.refresh());
    expect(refresh.changes).toMatchObject({ update: 1 });
    const pages = Math.ceil((await control.state()).devices.length / 100);
    // A token, the pages, and one GET for the device the listing did not return (its own
    // device_not_found drops it).
    expect(figures["refresh (1 deleted out of band)"]?.requests).toBeLessThanOrEqual(pages + 2);
    expect(Object.keys(await stateIds())).toHaveLength(COUNT - 1);
    await step("up (repair)", () => project.up());
    expect(figures["up (repair)"]?.writes).toEqual({ "POST /devices": 1 });
    assertOk(await project.preview({ expectNoChanges: true }));
    assertOk(await project.refresh());
    assertOk(await project.preview({ expectNoChanges: true }));
  });

  it("removes three devices with three DELETEs", async () => {
    const removed = devices.slice(20, 23);
    devices = devices.filter((d) => !removed.includes(d));
    writeFleet(devices);
    await step("up (remove 3)", () => project.up());
    expect(figures["up (remove 3)"]?.writes).toEqual({ "DELETE /devices/{deviceId}": 3 });
    expect(await fleetOnPlatform(removed)).toEqual([]);
  });

  it("moves a serial number from the fleet to a Device in one up, with no DELETE and no add", async () => {
    const moved = devices[30] as FleetDeviceSpec;
    const [before] = await fleetOnPlatform([moved]);
    devices = devices.filter((d) => d !== moved);
    writeFleet(devices);
    project.setProgram(deviceFleetProgram("site-a", [{ ...moved, resource: moved.sn }]));
    const up = await step("up (move one to a Device)", () => project.up());
    expect(figures["up (move one to a Device)"]?.writes).toEqual({});
    expect(up.output).toMatch(new RegExp(`adopted deviceId ${before?.deviceId}`));
    const [after] = await fleetOnPlatform([moved]);
    expect(after?.deviceId).toBe(before?.deviceId);
    const device = resourcesOfType(await project.exportStack(), DEVICE)[0];
    expect(device?.id).toBe(before?.deviceId);
    assertOk(await project.preview({ expectNoChanges: true }));
  });

  it("destroys every device", async () => {
    await step("destroy", () => project.destroy());
    expect(await fleetOnPlatform(devices)).toEqual([]);
    console.log(`DeviceFleet of ${COUNT}, per step:\n${JSON.stringify(figures, null, 2)}`);
  });
});
