/**
 * The lifecycle of a fleet on the real Pulumi CLI against the emulator: create, preview and up
 * with no changes, refresh, in-place update and delete-before-replace previews, drift repaired by
 * refresh and up, destroy. Request counts per step come from the emulator's counters.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { EmulatorControl } from "../../emulator";
import {
  deviceSpecs,
  fleetProgram,
  serialNumbers,
  type DeviceSpec,
  type RpsSpec,
} from "./support/fleet-programs";
import { createProject } from "./support/e2e-project";
import { assertOk, type PulumiProject, resourcesOfType } from "./support/pulumi-project";
import { e2e } from "./support/e2e-context";

const DEVICE = "pulumi-nodejs:dynamic/devplatform:Device";
const RPS = "pulumi-nodejs:dynamic/devplatform:RpsProfile";

describe("a fleet of 20 devices and 5 RPS records", () => {
  let control: EmulatorControl;
  let project: PulumiProject;
  let devices: DeviceSpec[];
  let rps: RpsSpec[];
  const requests: Record<string, number> = {};

  /** Runs a step and records how many platform requests it made. */
  async function counted<T>(label: string, step: () => Promise<T>): Promise<T> {
    await control.resetCounters();
    const result = await step();
    requests[label] = (await control.counters()).total;
    return result;
  }

  async function platformDevicesOfFleet() {
    const { devices: all } = await control.state();
    const serials = new Set(devices.map((d) => d.sn));
    return all.filter((d) => serials.has(d.sn));
  }

  beforeAll(async () => {
    control = new EmulatorControl(e2e().emulatorUrl);
    devices = deviceSpecs(20, ["e2e", "fleet"]);
    rps = serialNumbers(5, "AC").map((sn) => ({ sn, profileUrl: `https://rps.example.com/profiles/${sn}` }));
    project = await createProject({ name: "fleet", program: fleetProgram(devices, rps) });
  });

  it("creates every device and RPS record on the platform", async () => {
    const up = assertOk(await counted("up (create 20 devices, 5 RPS records)", () => project.up()));
    expect(up.changes.create).toBe(26); // the stack, 20 devices, 5 records
    const onPlatform = await platformDevicesOfFleet();
    expect(onPlatform.map((d) => d.name).sort()).toEqual(devices.map((d) => d.name).sort());
    const { rpsRecords } = await control.state();
    expect(rpsRecords.filter((r) => rps.some((x) => x.sn === r.sn))).toHaveLength(5);
  });

  it("previews no changes right after up, without a single platform request", async () => {
    const preview = assertOk(
      await counted("preview, no changes", () => project.preview({ expectNoChanges: true })),
    );
    expect(preview.changes).toEqual({ same: 26 });
    expect(requests["preview, no changes"]).toBe(0);
  });

  it("makes no platform request on an up with nothing to change", async () => {
    const up = assertOk(await counted("up, no changes", () => project.up()));
    expect(up.changes).toEqual({ same: 26 });
    expect(requests["up, no changes"]).toBe(0);
  });

  it("refreshes with no changes, reading each device once and listing RPS records once", async () => {
    const refresh = assertOk(await counted("refresh (20 devices, 5 RPS records)", () => project.refresh()));
    expect(refresh.changes).toEqual({ same: 26 });
    const byRoute = (await control.counters()).byRoute;
    expect(byRoute["GET /devices/{deviceId}"]).toBe(20);
    expect(byRoute["POST /rps/search"]).toBe(1);
    assertOk(await project.preview({ expectNoChanges: true }));
  });

  it("previews a rename and a tag change as in-place updates with per-property detail", async () => {
    const changed = devices.map((d, i) =>
      i === 0 ? { ...d, name: "renamed-0" } : i === 1 ? { ...d, tags: ["e2e", "moved"] } : d,
    );
    project.setProgram(fleetProgram(changed, rps));
    const preview = assertOk(await project.preview({ diff: true }));
    expect(preview.changes).toMatchObject({ update: 2, same: 24 });
    // Dynamic providers report no per-property `diffs` to the engine; `--diff` shows the detail
    // from the old and new inputs.
    const updated = preview.steps.filter((s) => s.op === "update").map((s) => s.urn.split("::").pop());
    expect(updated.sort()).toEqual(["device-0", "device-1"]);
    expect(preview.output).toMatch(/~ name\s*: "device-0" => "renamed-0"/);
    expect(preview.output).toMatch(/~ \[1\]: "fleet" => "moved"/);
  });

  it("previews a serial-number change as a delete-before-replace", async () => {
    const changed = devices.map((d, i) => (i === 2 ? { ...d, sn: serialNumbers(1)[0] as string } : d));
    project.setProgram(fleetProgram(changed, rps));
    const preview = assertOk(await project.preview());
    const ops = preview.steps.filter((s) => s.urn.endsWith("::device-2")).map((s) => s.op);
    // Delete-before-replace: the old device is deleted before its replacement is created.
    expect(ops).toEqual(["delete-replaced", "replace", "create-replacement"]);
    project.setProgram(fleetProgram(devices, rps));
  });

  it("shows out-of-band drift on refresh, drops a deleted device, and restores both on up", async () => {
    const [renamed, deleted] = await platformDevicesOfFleet().then((all) =>
      ["device-0", "device-1"].map((name) => all.find((d) => d.name === name)),
    );
    if (!renamed || !deleted) throw new Error("fleet devices not found on the platform");
    await control.changeDevice(renamed.deviceId, { name: "renamed-out-of-band" });
    await control.deleteDevice(deleted.deviceId);

    const refresh = assertOk(await project.refresh());
    expect(refresh.changes).toMatchObject({ update: 1, delete: 1 });
    const state = resourcesOfType(await project.exportStack(), DEVICE);
    expect(state).toHaveLength(19);
    expect(state.find((r) => r.id === renamed.deviceId)?.inputs?.name).toBe("renamed-out-of-band");

    const up = assertOk(await project.up());
    expect(up.changes).toMatchObject({ update: 1, create: 1 });
    const onPlatform = await platformDevicesOfFleet();
    expect(onPlatform).toHaveLength(20);
    expect(onPlatform.find((d) => d.deviceId === renamed.deviceId)?.name).toBe("device-0");
    expect(onPlatform.find((d) => d.name === "device-1")?.deviceId).not.toBe(deleted.deviceId);
    assertOk(await project.preview({ expectNoChanges: true }));
  });

  it("keeps a small, portable serialized provider with no secret in state", async () => {
    const stack = await project.exportStack();
    const provider = resourcesOfType(stack, DEVICE)[0]?.outputs?.__provider;
    expect(typeof provider).toBe("string");
    const text = provider as string;
    // Installed as users install it, the provider is stored as one `require` of the package.
    expect(text).toContain('require("pulumi-devplatform/providers/device")');
    expect(text).not.toMatch(/\/(tmp|work|home|root)\//);
    expect(text.length).toBeLessThan(400);
    const stateText = project.stateFileText();
    expect(stateText).not.toContain("demo-secret");
    console.log(
      `serialized provider: ${text.length} bytes per resource (stored twice, in inputs and outputs); ` +
        `state file: ${stateText.length} bytes for ${(stack.deployment.resources ?? []).length} resources`,
    );
  });

  it("destroys every device and RPS record of the stack", async () => {
    assertOk(await project.destroy());
    expect(await platformDevicesOfFleet()).toHaveLength(0);
    const { rpsRecords } = await control.state();
    expect(rpsRecords.filter((r) => rps.some((x) => x.sn === r.sn))).toHaveLength(0);
    expect(resourcesOfType(await project.exportStack(), RPS)).toHaveLength(0);
    console.log("platform requests per step:", JSON.stringify(requests, null, 2));
  });
});
