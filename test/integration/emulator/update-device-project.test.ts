/**
 * Update a Device Information changes the project tag in place, as the platform's API reference
 * documents (`project`, optional: "Update the device's project tag"): a value sets it, `""` clears
 * it, absent keeps it; the deviceId and the device's configuration stay. The `ignoreProject` fault
 * is a platform that answers the PUT without applying the project.
 */
import { describe, expect, it } from "vitest";
import { addDevice, serial, useEmulator, type DeviceJson, type DeviceResult } from "./support/fixtures";

const h = useEmulator();

async function projectOf(deviceId: string): Promise<string | undefined> {
  return (await h.api.ok<DeviceJson>("GET", `/devices/${deviceId}`)).project;
}

describe("Update a Device Information with project", () => {
  it("sets the project in place: same deviceId, same serial number, configuration kept", async () => {
    const { deviceId, sn } = await addDevice(h.api, serial("24"), { project: "a" });
    await h.api.ok("PATCH", `/devices/${deviceId}/properties`, { properties: { reportInterval: 900 } });
    const result = await h.api.ok<DeviceResult>("PUT", "/devices", { deviceId, name: "moved", project: "b" });
    expect(result).toMatchObject({ sn, deviceId });
    const device = await h.api.ok<DeviceJson>("GET", `/devices/${deviceId}`);
    expect(device).toMatchObject({ deviceId, sn, name: "moved", project: "b" });
    const config = await h.api.ok<{ properties: Record<string, unknown> }>(
      "GET",
      `/devices/${deviceId}/config`,
    );
    expect(config.properties.reportInterval).toBe(900);
    const { devices } = await h.emulator.control.state();
    expect(devices.filter((d) => d.sn === sn)).toHaveLength(1);
  });

  it('clears the project with "", and keeps it when project is absent', async () => {
    const { deviceId } = await addDevice(h.api, serial(), { project: "a" });
    await h.api.ok("PUT", "/devices", { deviceId, name: "kept" });
    expect(await projectOf(deviceId)).toBe("a");
    await h.api.ok("PUT", "/devices", { deviceId, name: "cleared", project: "" });
    expect(await projectOf(deviceId)).toBeUndefined();
    await h.api.ok("PUT", "/devices", { deviceId, name: "tagged", project: "c" });
    expect(await projectOf(deviceId)).toBe("c");
  });

  it("refuses a project that is not a string with 400 invalid_parameter naming project", async () => {
    const { deviceId } = await addDevice(h.api, serial(), { project: "a" });
    const response = await h.api.call("PUT", "/devices", { deviceId, name: "x", project: 7 });
    expect(response.status).toBe(400);
    expect(response.body.errCode).toBe("invalid_parameter");
    expect(response.body.errMsg).toContain("project");
    expect(await projectOf(deviceId)).toBe("a");
  });

  it("under the ignoreProject fault answers success, applies the rest, and leaves the project", async () => {
    const { deviceId, sn } = await addDevice(h.api, serial(), { project: "a" });
    await h.emulator.control.setFaults({ ignoreProject: true });
    const result = await h.api.ok<DeviceResult>("PUT", "/devices", {
      deviceId,
      name: "renamed",
      project: "b",
    });
    expect(result).toMatchObject({ sn, deviceId });
    expect(await h.api.ok<DeviceJson>("GET", `/devices/${deviceId}`)).toMatchObject({
      name: "renamed",
      project: "a",
    });
    await h.emulator.control.clearFaults();
    await h.api.ok("PUT", "/devices", { deviceId, name: "renamed", project: "b" });
    expect(await projectOf(deviceId)).toBe("b");
  });

  it("is off by default: a fault configuration without ignoreProject applies the project", async () => {
    const { deviceId } = await addDevice(h.api, serial(), { project: "a" });
    const config = await h.emulator.control.setFaults({ dropProperties: ["reportInterval"] });
    expect(config.ignoreProject).toBe(false);
    await h.api.ok("PUT", "/devices", { deviceId, name: "x", project: "b" });
    expect(await projectOf(deviceId)).toBe("b");
  });

  it("the control API changes a project out of band (drift), and null clears it", async () => {
    const { deviceId } = await addDevice(h.api, serial(), { project: "a" });
    await h.emulator.control.changeDevice(deviceId, { project: "elsewhere" });
    expect(await projectOf(deviceId)).toBe("elsewhere");
    await h.emulator.control.changeDevice(deviceId, { project: null });
    expect(await projectOf(deviceId)).toBeUndefined();
  });
});
