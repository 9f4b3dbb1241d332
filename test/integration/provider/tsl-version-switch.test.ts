/**
 * A DeviceConfig in the same `up` as a Device whose `tslVersion` changes is validated against the
 * new model: at preview the new model cannot be read yet (the device still runs the old version),
 * so its check waits for the write; after the Device's update the model is read again — not taken
 * from the cache of the old version.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { deviceConfigImplementation as config } from "../../../provider/device-config/provider";
import { deviceImplementation as device } from "../../../provider/device/provider";
import { resetOwnership } from "../../../provider/guardrails/ownership";
import { forgetThingModels } from "../../../provider/tsl/models";
import { forgetTslVersions } from "../../../provider/tsl/versions";
import { serialNumbers } from "../../e2e/support/fleet-programs";
import { useConfiguredEmulator } from "./support/configured-emulator";

const env = useConfiguredEmulator({ taskDelayMs: 10 });

beforeEach(() => {
  forgetThingModels();
  forgetTslVersions();
  resetOwnership();
});

describe("a device switching TSL version in the same up as its configuration", () => {
  it("validates the configuration against the new version's model", async () => {
    const [sn] = serialNumbers(1) as [string];
    const before = { sn, name: "switching", tslVersion: "1.0.0" };
    const { id, outs } = await device.create(before);
    // sampleWindow exists only in version 1.1.0 of the sensor's model; the 1.0.0 model is now cached.
    const wanted = { deviceIds: id, properties: { sampleWindow: 30 } };
    expect((await config.check({}, wanted)).failures).toEqual([
      expect.objectContaining({ property: "properties.sampleWindow" }),
    ]);

    // The engine diffs the Device (the version changes), checks the DeviceConfig, updates the Device,
    // then creates the DeviceConfig (it depends on the device's id).
    const after = { ...before, tslVersion: "1.1.0" };
    expect((await device.diff(id, outs, after)).changes).toBe(true);
    expect((await config.check({}, wanted)).failures).toEqual([]);
    await device.update(id, outs, after);
    const created = await config.create((await config.check({}, wanted)).inputs);
    expect(created.outs.properties).toEqual({ sampleWindow: 30 });
    const onPlatform = (await env.emulator.control.state()).devices.find((d) => d.deviceId === id);
    expect(onPlatform?.properties.sampleWindow).toBe(30);
  });

  it("still refuses a value the new model refuses, before writing", async () => {
    const [sn] = serialNumbers(1) as [string];
    const before = { sn, name: "switching", tslVersion: "1.0.0" };
    const { id, outs } = await device.create(before);
    const after = { ...before, tslVersion: "1.1.0" };
    await device.diff(id, outs, after);
    await device.update(id, outs, after);
    await expect(config.create({ deviceIds: [id], properties: { sampleWindow: 600 } })).rejects.toThrow(
      /nothing was written:\n.*sampleWindow must be at most 60/s,
    );
  });
});
