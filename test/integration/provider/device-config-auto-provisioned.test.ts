/**
 * A DeviceConfig of devices that were auto-provisioned at add: what the template applied is what
 * the devices start with, so a DeviceConfig declaring the same values writes nothing, and one that
 * differs writes only the difference (and overwrites the template's value).
 */
import { beforeEach, describe, expect, it } from "vitest";
import { deviceConfigImplementation as config } from "../../../provider/device-config/provider";
import { platformClient } from "../../../provider/platform-access/platform-client";
import { resetPropertyOwnership } from "../../../provider/guardrails/property-ownership";
import { forgetThingModels } from "../../../provider/tsl/models";
import { serialNumbers } from "../../e2e/support/fleet-programs";
import { writesOf } from "../../e2e/support/platform-writes";
import { useConfiguredEmulator } from "./support/configured-emulator";

const env = useConfiguredEmulator({ taskDelayMs: 10 });
const TEMPLATE = { version: "t1", type: "TSL", properties: { reportInterval: 900, ledEnabled: false } };

beforeEach(() => {
  forgetThingModels();
  resetPropertyOwnership();
});

/** Adds sensors with the template; returns their ids once auto-provisioning succeeded. */
async function autoProvisioned(count: number): Promise<string[]> {
  const client = await platformClient();
  const ids: string[] = [];
  for (const sn of serialNumbers(count, "24")) {
    const { deviceId } = await client.addDevice({
      snDevEUI: sn,
      name: "auto",
      autoProvision: true,
      config: TEMPLATE,
    });
    expect((await client.getDevice(deviceId)).autopStatus).toBe("SUCCESS");
    ids.push(deviceId);
  }
  return ids;
}

async function created(inputs: Record<string, unknown>) {
  const { inputs: checked, failures } = await config.check({}, inputs);
  expect(failures ?? []).toEqual([]);
  await env.emulator.control.resetCounters();
  const result = await config.create(checked);
  return { result, writes: writesOf((await env.emulator.control.counters()).byRoute) };
}

describe("DeviceConfig of auto-provisioned devices", () => {
  it("adopts the template's values with zero writes, on one device (PATCH) and on several (tasks)", async () => {
    const [one, ...more] = await autoProvisioned(3);
    const single = await created({ deviceIds: [one], properties: TEMPLATE.properties });
    expect(single.writes).toEqual({});
    const fleet = await created({ deviceIds: more, properties: TEMPLATE.properties });
    expect(fleet.writes).toEqual({});
    expect(fleet.result.outs).toMatchObject({ properties: TEMPLATE.properties, taskIds: {} });
  });

  it("writes only what differs from the template, overwriting it", async () => {
    const [id] = (await autoProvisioned(1)) as [string];
    const { writes } = await created({
      deviceIds: [id],
      properties: { reportInterval: 900, ledEnabled: true },
    });
    expect(writes).toEqual({ "PATCH /devices/{deviceId}/properties": 1 });
    const reports = await env.emulator.control.propertyReports(id);
    expect(reports.map((r) => r.properties)).toEqual([TEMPLATE.properties, { ledEnabled: true }]);
    expect((await (await platformClient()).getDeviceConfig(id)).properties).toMatchObject({
      reportInterval: 900,
      ledEnabled: true,
    });
  });
});
