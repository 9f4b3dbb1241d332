/**
 * A DeviceConfig on the real Pulumi CLI: one device created in the same program and configured by
 * PATCH — the first preview before any up, a per-property `preview --diff`, a bad value refused at
 * preview without a write, drift found by refresh and corrected by up, and `resetOnDelete`
 * restoring the TSL defaults when the configuration is removed. Request counts come from the
 * emulator's counters.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { EmulatorControl, type CounterSnapshot } from "../../emulator";
import { DEVICE_CONFIG, deviceWithConfigProgram, type ConfigSpec } from "./support/config-programs";
import { createProject } from "./support/e2e-project";
import { serialNumbers } from "./support/fleet-programs";
import { assertOk, resourcesOfType, type PulumiProject } from "./support/pulumi-project";
import { e2e } from "./support/e2e-context";

const CONFIG: ConfigSpec = {
  properties: { reportInterval: 900, temperatureUnit: 1, alarmThreshold: { high: 40, low: -5 } },
  resetOnDelete: true,
};

/** Requests that change something on the platform (everything but reads and the token). */
function writes(counters: CounterSnapshot): number {
  return Object.entries(counters.byRoute)
    .filter(([route]) => !route.startsWith("GET ") && route !== "POST /oauth/token")
    .reduce((sum, [, count]) => sum + count, 0);
}

describe("a DeviceConfig of one device created in the same program", () => {
  let control: EmulatorControl;
  let project: PulumiProject;
  let deviceId: string;
  const device = { sn: serialNumbers(1)[0] as string, name: "config-sensor" };
  const requests: Record<string, Record<string, number>> = {};

  async function counted<T>(label: string, step: () => Promise<T>): Promise<T> {
    await control.resetCounters();
    const result = await step();
    requests[label] = (await control.counters()).byRoute;
    return result;
  }

  async function platformProperties(): Promise<Record<string, unknown>> {
    const found = (await control.state()).devices.find((d) => d.deviceId === deviceId);
    if (!found) throw new Error(`device ${deviceId} is not on the platform`);
    return found.properties;
  }

  beforeAll(async () => {
    control = new EmulatorControl(e2e().emulatorUrl);
    project = await createProject({
      name: "device-config",
      program: deviceWithConfigProgram(device, CONFIG),
    });
  });

  it("previews before any up, the device id still unknown, without a request", async () => {
    const preview = assertOk(await counted("first preview", () => project.preview()));
    expect(preview.changes).toEqual({ create: 3 }); // the stack, the device, its configuration
    expect(requests["first preview"]).toEqual({});
  });

  it("creates the device and configures it with one PATCH", async () => {
    const up = assertOk(await counted("up (create device and config)", () => project.up()));
    expect(up.changes).toEqual({ create: 3 });
    const [config] = resourcesOfType(await project.exportStack(), DEVICE_CONFIG);
    deviceId = config?.id as string;
    expect(deviceId).toMatch(/^\d+$/);
    expect(config?.outputs).toMatchObject({
      deviceIds: [deviceId],
      method: "patch",
      properties: CONFIG.properties,
    });
    expect(requests["up (create device and config)"]).toMatchObject({
      "PATCH /devices/{deviceId}/properties": 1,
      "GET /devices/{deviceId}/thing-specification": 1,
    });
    expect(await platformProperties()).toMatchObject({
      reportInterval: 900,
      temperatureUnit: 1,
      alarmThreshold: { "alarmThreshold.high": 40, "alarmThreshold.low": -5 },
    });
  });

  it("previews no changes without a request", async () => {
    const preview = assertOk(
      await counted("preview, no changes", () => project.preview({ expectNoChanges: true })),
    );
    expect(preview.changes).toEqual({ same: 3 });
    expect(requests["preview, no changes"]).toEqual({});
  });

  it("keeps the device id known when the device changes: its configuration is unchanged in the preview", async () => {
    project.setProgram(deviceWithConfigProgram({ ...device, tags: ["retagged"] }, CONFIG));
    const preview = assertOk(await project.preview({ diff: true }));
    // The device updates in place; its DeviceConfig's deviceIds do not turn [unknown].
    expect(preview.changes).toEqual({ update: 1, same: 2 });
    expect(preview.steps.find((s) => s.op === "update")?.type).toBe(
      "pulumi-nodejs:dynamic/devplatform:Device",
    );
    expect(preview.output).not.toContain("[unknown]");
    project.setProgram(deviceWithConfigProgram(device, CONFIG));
  });

  it("previews a changed value as a per-property diff, reading only the TSL model", async () => {
    const changed = {
      ...CONFIG,
      properties: { ...CONFIG.properties, reportInterval: 1200, ledEnabled: false },
    };
    project.setProgram(deviceWithConfigProgram(device, changed));
    const preview = assertOk(
      await counted("preview --diff of a change", () => project.preview({ diff: true })),
    );
    expect(preview.changes).toMatchObject({ update: 1, same: 2 });
    const update = preview.steps.find((s) => s.op === "update");
    expect(update?.type).toBe(DEVICE_CONFIG);
    // Dynamic providers return no detailedDiff: the detail below comes from old and new inputs.
    console.log(`preview --diff of a DeviceConfig change:\n${preview.stdout}`);
    expect(preview.output).toMatch(/~ reportInterval\s*: 900 => 1200/);
    expect(preview.output).toMatch(/\+ ledEnabled\s*: false/);
    expect(requests["preview --diff of a change"]).toEqual({
      "POST /oauth/token": 1,
      "GET /devices/{deviceId}/thing-specification": 1,
    });

    assertOk(await counted("up (change two properties)", () => project.up()));
    expect(requests["up (change two properties)"]?.["PATCH /devices/{deviceId}/properties"]).toBe(1);
    expect(await platformProperties()).toMatchObject({ reportInterval: 1200, ledEnabled: false });
    project.setProgram(deviceWithConfigProgram(device, CONFIG));
    assertOk(await project.up());
  });

  it("refuses a bad value at preview, naming the property and the rule, with zero writes", async () => {
    const bad = { ...CONFIG, properties: { ...CONFIG.properties, reportInterval: 90000, label: "" } };
    project.setProgram(deviceWithConfigProgram(device, bad));
    await control.resetCounters();
    const preview = await project.preview();
    const counters = await control.counters();
    requests["preview of a bad value"] = counters.byRoute;
    expect(preview.exitCode).not.toBe(0);
    expect(preview.output).toContain(
      `DeviceConfig.properties.reportInterval must be at most 86400 (TSL validator max of device ${deviceId}), got 90000`,
    );
    expect(preview.output).toContain("DeviceConfig.properties.label must have at least 1 character");
    expect(preview.output).not.toMatch(/\n\s+at /);
    expect(writes(counters)).toBe(0);
    project.setProgram(deviceWithConfigProgram(device, CONFIG));
  });

  it("finds drift made on the platform on refresh and corrects it on up", async () => {
    await control.changeDevice(deviceId, { properties: { reportInterval: 61, temperatureUnit: 0 } });
    const refresh = assertOk(await counted("refresh with drift", () => project.refresh()));
    expect(refresh.changes).toMatchObject({ update: 1 });
    const [config] = resourcesOfType(await project.exportStack(), DEVICE_CONFIG);
    expect(config?.inputs?.properties).toMatchObject({ reportInterval: 61, temperatureUnit: 0 });
    expect(requests["refresh with drift"]?.["GET /devices/{deviceId}/config"]).toBe(1);

    const up = assertOk(await counted("up (correct drift)", () => project.up()));
    expect(up.changes).toMatchObject({ update: 1 });
    expect(await platformProperties()).toMatchObject({ reportInterval: 900, temperatureUnit: 1 });
    assertOk(await project.preview({ expectNoChanges: true }));
  });

  it("restores the TSL defaults when the configuration is removed with resetOnDelete", async () => {
    project.setProgram(deviceWithConfigProgram(device));
    const up = assertOk(await counted("up (remove config, resetOnDelete)", () => project.up()));
    expect(up.changes).toMatchObject({ delete: 1, same: 2 });
    expect(await platformProperties()).toMatchObject({
      reportInterval: 600,
      temperatureUnit: 0,
      alarmThreshold: { "alarmThreshold.high": 30, "alarmThreshold.low": 0 },
    });
    expect(requests["up (remove config, resetOnDelete)"]?.["PATCH /devices/{deviceId}/properties"]).toBe(1);
    assertOk(await project.destroy());
    console.log("DeviceConfig (one device) platform requests per step:", JSON.stringify(requests, null, 2));
  });
});
