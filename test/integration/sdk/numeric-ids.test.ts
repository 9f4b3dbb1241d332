/** Ids above 2^53 sent by the platform as JSON numbers (numericIds) round-trip exactly. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serialNumbers, startHarness, type Harness } from "./support/harness";

let harness: Harness;
const nextSn = serialNumbers();

beforeAll(async () => {
  harness = await startHarness({ numericIds: true });
});
afterAll(() => harness.stop());

describe("numeric ids above 2^53", () => {
  it("keeps deviceId, applicationId and taskId exact through add, get, search, update, tasks and delete", async () => {
    const { client, emulator } = harness;
    const sn = nextSn();
    const added = await client.addDevice({ snDevEUI: sn, name: "big" });
    expect(BigInt(added.deviceId)).toBeGreaterThan(2n ** 53n);

    const [stored] = (await emulator.control.state()).devices.filter((d) => d.sn === sn);
    expect(String(stored?.deviceId)).toBe(added.deviceId);

    const device = await client.getDevice(added.deviceId);
    expect(device.deviceId).toBe(added.deviceId);
    expect(device.application?.applicationId).toMatch(/^\d+$/);

    const found = await client.findDeviceBySn(sn);
    expect(found?.deviceId).toBe(added.deviceId);

    expect((await client.updateDevice({ deviceId: added.deviceId, name: "bigger" })).deviceId).toBe(
      added.deviceId,
    );
    expect((await client.getDevice(added.deviceId)).name).toBe("bigger");

    const [relation] = await client.createConfigTasks({
      type: "PROFILE",
      deviceIds: [added.deviceId],
      config: { values: [{ key: "reportInterval", value: 300 }] },
    });
    expect(relation?.deviceId).toBe(added.deviceId);
    expect(relation?.taskId).toMatch(/^\d+$/);

    await client.deleteDevice(added.deviceId);
    expect((await emulator.control.state()).devices.some((d) => d.sn === sn)).toBe(false);
  });

  it("sends ids as exact JSON numbers when asked", async () => {
    const client = harness.newClient({ sendIdsAsNumbers: true });
    const { deviceId } = await client.addDevice({ snDevEUI: nextSn(), name: "n" });
    await client.updateDevice({ deviceId, name: "renamed" });
    expect((await client.getDevice(deviceId)).name).toBe("renamed");
    const relations = await client.createConfigTasks({
      type: "TSL",
      deviceIds: [deviceId],
      config: { properties: { reportInterval: 120 } },
    });
    expect(relations.map((r) => r.deviceId)).toEqual([deviceId]);
  });
});
