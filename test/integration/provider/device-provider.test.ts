/**
 * The Device implementation (create/read/update/delete) against a real emulator on loopback:
 * adoption, RPS take-over, drift for refresh, idempotent delete, user-facing errors, and faults.
 */
import { describe, expect, it } from "vitest";
import { dynamicOperations } from "../../../provider/dynamic/implementations";
import { resetOwnership } from "../../../provider/guardrails/ownership";
import { platformClient } from "../../../provider/platform-access/platform-client";
import { serialNumbers } from "../../e2e/support/fleet-programs";
import { useConfiguredEmulator } from "./support/configured-emulator";

// The dynamic front-end's answers (its diff: changes, replaces, deleteBeforeReplace).
const deviceImplementation = dynamicOperations.Device;

const env = useConfiguredEmulator();

async function devicesWithSn(sn: string) {
  return (await env.emulator.control.state()).devices.filter((d) => d.sn === sn);
}

describe("Device create", () => {
  it("adds the device and returns the platform's outputs with the inputs", async () => {
    const [sn] = serialNumbers(1) as [string];
    const { id, outs } = await deviceImplementation.create({ sn, name: "a", tags: ["x"] });
    expect(id).toMatch(/^\d+$/);
    expect(BigInt(id)).toBeGreaterThan(2n ** 53n);
    expect(outs).toMatchObject({ sn, name: "a", tags: ["x"], deviceId: id, licenseStatus: "VALID" });
    expect(outs.model).toBeTruthy();
  });

  it("adopts a device already in the application and updates it to the declared state", async () => {
    const [sn] = serialNumbers(1) as [string];
    const client = await platformClient();
    const existing = await client.addDevice({ snDevEUI: sn, name: "old-name" });
    const { id, outs } = await deviceImplementation.create({ sn, name: "declared", description: "d" });
    expect(id).toBe(existing.deviceId);
    expect(outs).toMatchObject({ name: "declared", description: "d" });
    expect(await devicesWithSn(sn)).toHaveLength(1);
    expect((await devicesWithSn(sn))[0]?.name).toBe("declared");
  });

  it("with adoptExisting: false, fails naming the deviceId already there", async () => {
    const [sn] = serialNumbers(1) as [string];
    const existing = await (await platformClient()).addDevice({ snDevEUI: sn, name: "there" });
    await expect(deviceImplementation.create({ sn, name: "x", adoptExisting: false })).rejects.toThrow(
      new RegExp(`already in this application as deviceId ${existing.deviceId}.*remove adoptExisting: false`),
    );
  });

  it("takes a serial number over from RPS when asked, and explains the conflict otherwise", async () => {
    const [sn] = serialNumbers(1, "AC") as [string];
    const client = await platformClient();
    await client.setRpsProfile({ sn, profileUrl: "https://rps.example.com/p" });

    const refused = deviceImplementation.create({ sn, name: "blocked" });
    await expect(refused).rejects.toThrow(
      new RegExp(
        `^create Device sn=${sn} failed: POST /device/openapi/v1/devices failed: HTTP 409 rps_record_exists: .*requestId`,
      ),
    );
    const error: unknown = await refused.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error instanceof Error && error.stack).not.toMatch(/\n\s+at /);

    const { id } = await deviceImplementation.create({ sn, name: "taken-over", takeOverRps: true });
    expect(id).toMatch(/^\d+$/);
    expect((await env.emulator.control.state()).rpsRecords.find((r) => r.sn === sn)).toBeUndefined();
  });

  it("sets the TSL version right after adding", async () => {
    const [sn] = serialNumbers(1) as [string];
    await env.emulator.control.resetCounters();
    await deviceImplementation.create({ sn, name: "tsl", tslVersion: "1.0.0" });
    const { byRoute } = await env.emulator.control.counters();
    expect(byRoute["POST /devices"]).toBe(1);
    expect(byRoute["PUT /devices"]).toBe(1);
  });

  it("creates exactly one device per serial number under 30% injected faults", async () => {
    const serials = serialNumbers(20);
    await env.emulator.control.setFaults({
      rate: 0.3,
      // No 429: a refusal slows the whole client (pacer.ts), and random ones would pace 20 adds at
      // under a request a second; a 429 is never performed (test/integration/sdk/faults.test.ts).
      kinds: ["503", "reset", "reset-after"],
      retryAfterSeconds: 0,
      seed: 7,
    });
    try {
      await Promise.all(serials.map((sn, i) => deviceImplementation.create({ sn, name: `f-${i}` })));
    } finally {
      await env.emulator.control.clearFaults();
    }
    for (const sn of serials) expect(await devicesWithSn(sn)).toHaveLength(1);
  });
});

describe("Device read, update and delete", () => {
  it("reads drift as inputs, keeping what the platform does not report", async () => {
    const [sn] = serialNumbers(1) as [string];
    const { id, outs } = await deviceImplementation.create({
      sn,
      name: "before",
      tslVersion: "1.0.0",
      takeOverRps: true,
    });
    await env.emulator.control.changeDevice(id, { name: "renamed-out-of-band", connectStatus: "OFFLINE" });
    const read = await deviceImplementation.read(id, outs);
    expect(read.id).toBe(id);
    expect(read.inputs).toEqual({ sn, name: "renamed-out-of-band", tslVersion: "1.0.0", takeOverRps: true });
    expect(read.props).toMatchObject({ name: "renamed-out-of-band", connectStatus: "OFFLINE" });
  });

  it("outputs autopStatus as a status: DISABLE at create, WAITING read after a platform change, never a diff", async () => {
    const [sn] = serialNumbers(1) as [string];
    const declared = { sn, name: "autop" };
    const { id, outs } = await deviceImplementation.create(declared);
    expect(outs).toMatchObject({ autopStatus: "DISABLE" });
    await env.emulator.control.changeDevice(id, { sendAs: { autopStatus: "WAITING" } });
    const read = await deviceImplementation.read(id, outs);
    expect(read.props).toMatchObject({ autopStatus: "WAITING" });
    const diff = await deviceImplementation.diff(id, read.props ?? {}, declared);
    expect(diff).toEqual({ changes: false, replaces: [], deleteBeforeReplace: false });
  });

  it("reads a device deleted on the platform as gone", async () => {
    const [sn] = serialNumbers(1) as [string];
    const { id, outs } = await deviceImplementation.create({ sn, name: "doomed" });
    await env.emulator.control.deleteDevice(id);
    expect(await deviceImplementation.read(id, outs)).toEqual({ id: "", props: {} });
  });

  it("updates with the whole desired state, clearing what was removed", async () => {
    const [sn] = serialNumbers(1) as [string];
    const { id, outs } = await deviceImplementation.create({
      sn,
      name: "u",
      description: "has one",
      tags: ["a"],
    });
    const updated = await deviceImplementation.update(id, outs, { sn, name: "u2" });
    expect(updated.outs).toMatchObject({ name: "u2" });
    const [device] = await devicesWithSn(sn);
    expect(device?.name).toBe("u2");
    expect(device?.description ?? "").toBe("");
    expect(device?.tag ?? []).toEqual([]);
  });

  it("deletes, and counts a device already gone as deleted", async () => {
    const [sn] = serialNumbers(1) as [string];
    const { id, outs } = await deviceImplementation.create({ sn, name: "d" });
    // A deployment never creates and deletes one Device: the delete is the next deployment's.
    resetOwnership();
    await deviceImplementation.delete(id, outs);
    expect(await devicesWithSn(sn)).toHaveLength(0);
    await expect(deviceImplementation.delete(id, outs)).resolves.toBeUndefined();
  });
});
