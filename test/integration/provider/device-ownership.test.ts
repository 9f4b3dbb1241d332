/**
 * One device, one owner, and nothing lost: the Device implementation against a real emulator.
 * A delete never removes a device that another resource took or declares in the same deployment,
 * or one that no longer carries the recorded serial number; adoption writes nothing when the
 * platform already matches and retags a device in another project; partial creates are recorded.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { deviceImplementation } from "../../../provider/device/provider";
import { resetOwnership } from "../../../provider/guardrails/ownership";
import { platformClient } from "../../../provider/platform-access/platform-client";
import { serialNumbers } from "../../e2e/support/fleet-programs";
import { useConfiguredEmulator } from "./support/configured-emulator";

const env = useConfiguredEmulator();

beforeEach(() => resetOwnership());

async function onPlatform(sn: string) {
  return (await env.emulator.control.state()).devices.filter((d) => d.sn.toUpperCase() === sn.toUpperCase());
}

async function writes(): Promise<number> {
  const { byRoute } = await env.emulator.control.counters();
  return Object.entries(byRoute)
    .filter(([route]) => /^(POST|PUT|PATCH|DELETE) /.test(route) && !route.endsWith("/search"))
    .filter(([route]) => route !== "POST /oauth/token")
    .reduce((sum, [, n]) => sum + n, 0);
}

/** What the previous deployment left in state for a device. */
async function deployed(sn: string, name = "n") {
  const created = await deviceImplementation.create({ sn, name });
  resetOwnership(); // the next deployment starts with an empty record
  return created;
}

describe("a rename: the new resource adopts, the old resource's delete leaves the device", () => {
  it("keeps the device on the platform and sends no DELETE", async () => {
    const [sn] = serialNumbers(1) as [string];
    const old = await deployed(sn, "warehouse-humidity");
    await env.emulator.control.resetCounters();

    // The engine checks and creates the renamed resource, then deletes the old one at the end.
    await deviceImplementation.check({}, { sn, name: "warehouse-humidity-2" });
    const renamed = await deviceImplementation.create({ sn, name: "warehouse-humidity-2" });
    await deviceImplementation.delete(old.id, old.outs);

    expect(renamed.id).toBe(old.id);
    expect(await onPlatform(sn)).toMatchObject([{ deviceId: old.id, name: "warehouse-humidity-2" }]);
    const { byRoute } = await env.emulator.control.counters();
    expect(byRoute["DELETE /devices/{deviceId}"] ?? 0).toBe(0);
    expect(byRoute["POST /devices"] ?? 0).toBe(0);
  });

  it("leaves a device whose serial number another Device declares", async () => {
    const [sn] = serialNumbers(1) as [string];
    const old = await deployed(sn);
    await deviceImplementation.check({}, { sn: sn.toLowerCase(), name: "declared-elsewhere" });
    await deviceImplementation.delete(old.id, old.outs);
    expect(await onPlatform(sn)).toHaveLength(1);
  });

  it("leaves the device when the other declaration is in another project (that resource retags it)", async () => {
    const [sn] = serialNumbers(1) as [string];
    const old = await deployed(sn);
    await env.emulator.control.resetCounters();
    await deviceImplementation.check({}, { sn, name: "moved", project: "elsewhere" });
    await deviceImplementation.delete(old.id, old.outs);
    expect(await onPlatform(sn)).toMatchObject([{ deviceId: old.id }]);
    expect(await writes()).toBe(0);
  });
});

describe("delete checks the serial number recorded in state", () => {
  it("does not delete a deviceId that now carries another serial number", async () => {
    const [sn, other] = serialNumbers(2) as [string, string];
    const { id } = await deployed(sn);
    await env.emulator.control.resetCounters();
    await deviceImplementation.delete(id, { sn: other, name: "stale state" });
    expect(await onPlatform(sn)).toHaveLength(1);
    expect((await env.emulator.control.counters()).byRoute["DELETE /devices/{deviceId}"] ?? 0).toBe(0);
  });

  it("deletes a device whose serial number differs only in case", async () => {
    const [sn] = serialNumbers(1) as [string];
    const { id } = await deployed(sn);
    await deviceImplementation.delete(id, { sn: sn.toLowerCase(), name: "n" });
    expect(await onPlatform(sn)).toHaveLength(0);
  });
});

describe("adoption", () => {
  it("writes nothing when the platform already matches the declaration", async () => {
    const [sn] = serialNumbers(1) as [string];
    await (await platformClient()).addDevice({ snDevEUI: sn, name: "same", tag: ["a", "b"], project: "p" });
    await env.emulator.control.resetCounters();
    const { outs } = await deviceImplementation.create({ sn, name: "same", tags: ["a", "b"], project: "p" });
    expect(outs).toMatchObject({ name: "same", tags: ["a", "b"], model: expect.any(String) });
    expect(await writes()).toBe(0);
  });

  it("adopts a device in another project and retags it with one PUT (a project is a tag)", async () => {
    const [sn] = serialNumbers(1) as [string];
    const existing = await (await platformClient()).addDevice({ snDevEUI: sn, name: "x", project: "old" });
    await env.emulator.control.resetCounters();
    const { id } = await deviceImplementation.create({ sn, name: "x", project: "new" });
    expect(id).toBe(existing.deviceId);
    expect(await onPlatform(sn)).toMatchObject([{ deviceId: existing.deviceId, project: "new" }]);
    expect(await writes()).toBe(1);
  });

  it("adopts a serial number declared in another case without a second device", async () => {
    const [sn] = serialNumbers(1) as [string];
    const { id } = await deployed(sn.toUpperCase());
    const again = await deviceImplementation.create({ sn: sn.toLowerCase(), name: "n" });
    expect(again.id).toBe(id);
    expect(await onPlatform(sn)).toHaveLength(1);
  });
});

describe("partial success is recorded", () => {
  // A tslVersion the platform refuses no longer leaves a partial success: the added device is
  // deleted again (device-refused-tsl-version.test.ts); a TSL version that could not be set for
  // another reason is still recorded, as the e2e partial-failures-never-strand shows.

  it("names the RPS record it removed when the add fails after a take-over", async () => {
    const [sn] = serialNumbers(1, "AC") as [string];
    const client = await platformClient();
    await client.setRpsProfile({ sn, profileUrl: "https://rps.example.com/handover" });
    // The add will fail: the serial number is (also) in another application.
    await env.emulator.control.seedDevice({ sn, name: "elsewhere", applicationId: "1650000000000000099" });
    await expect(deviceImplementation.create({ sn, name: "h", takeOverRps: true })).rejects.toThrow(
      /HTTP 409 device_in_other_application.*the RPS record of .* \(profileUrl https:\/\/rps\.example\.com\/handover\) had already been deleted/,
    );
  });
});
