/**
 * Holds: the requests of a route after the Nth wait, unanswered, until released, then perform or
 * fail as the hold says — the kill points of the e2e tests and of the random-operations harness.
 */
import { request as httpRequest } from "node:http";
import { describe, expect, it } from "vitest";
import { EmulatorControlError } from "../../../emulator";
import { addDevice, serial, useEmulator, type DeviceResult } from "./support/fixtures";
import type { ApiResponse } from "./support/platform-api";

const h = useEmulator();

async function serialsOnPlatform(): Promise<string[]> {
  return (await h.emulator.control.state()).devices.map((d) => d.sn).sort();
}

/** A request whose settlement can be observed without awaiting it. */
function watched<T>(promise: Promise<T>): { promise: Promise<T>; settled: () => boolean } {
  let settled = false;
  const tracked = promise.finally(() => (settled = true));
  return { promise: tracked, settled: () => settled };
}

const add = (sn: string) =>
  watched(h.api.call<DeviceResult>("POST", "/devices", { snDevEUI: sn, name: `held-${sn}` }));

describe("holds", () => {
  it("lets exactly N requests pass, holds the next ones unanswered, and performs them on release", async () => {
    await h.api.token();
    const holdId = await h.emulator.control.hold("POST /devices", 2);
    const passing = [serial(), serial()];
    for (const sn of passing) await addDevice(h.api, sn);
    const heldSerials = [serial(), serial()];
    const held = heldSerials.map(add);
    await h.emulator.control.waitUntilHeld(holdId, 2);

    expect(await h.emulator.control.holds()).toEqual([
      { holdId, route: "POST /devices", after: 2, then: "perform", passed: 2, held: 2 },
    ]);
    // Other routes are served meanwhile; the held requests stay unanswered and unperformed.
    const page = await h.api.ok<{ total: number }>("POST", "/devices/search", {
      pageNumber: 1,
      pageSize: 10,
    });
    expect(page.total).toBe(2);
    expect(held.map((r) => r.settled())).toEqual([false, false]);
    expect(await serialsOnPlatform()).toEqual([...passing].sort());

    expect(await h.emulator.control.release(holdId)).toBe(2);
    // The release answers after the released requests were answered: their effect is visible.
    expect(held.map((r) => r.settled())).toEqual([true, true]);
    expect(await serialsOnPlatform()).toEqual([...passing, ...heldSerials].sort());
    const answers: ApiResponse<DeviceResult>[] = await Promise.all(held.map((r) => r.promise));
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    expect(await h.emulator.control.holds()).toEqual([]);
    expect((await h.emulator.control.counters()).byRoute["POST /devices"]).toBe(4);
  });

  it('answers held requests 503 unperformed with then: "fail", and removes the hold', async () => {
    await h.api.token();
    const holdId = await h.emulator.control.hold("POST /devices", 1, "fail");
    const first = serial();
    await addDevice(h.api, first);
    const held = add(serial());
    await h.emulator.control.waitUntilHeld(holdId);
    expect(await h.emulator.control.release(holdId)).toBe(1);
    const answer = await held.promise;
    expect(answer.status).toBe(503);
    expect(answer.body).toMatchObject({ status: "Failed", errCode: "service_unavailable" });
    expect(await serialsOnPlatform()).toEqual([first]);
    // The hold is gone: the next request passes.
    const next = serial();
    await addDevice(h.api, next);
    expect(await serialsOnPlatform()).toEqual([first, next].sort());
  });

  it("counts from when the hold is set, per route key, across API versions", async () => {
    await h.api.token();
    await addDevice(h.api, serial());
    const { deviceId } = await addDevice(h.api, serial());
    const holdId = await h.emulator.control.hold("GET /devices/{deviceId}", 1);
    await h.api.ok("GET", `/devices/${deviceId}`, undefined, { version: "V1.0" });
    await addDevice(h.api, serial()); // another route: neither counted by the hold nor held
    const held = watched(h.api.call("GET", `/devices/${deviceId}`, undefined, { version: "v1.0" }));
    await h.emulator.control.waitUntilHeld(holdId);
    expect((await h.emulator.control.holds())[0]).toMatchObject({ passed: 1, held: 1 });
    await h.emulator.control.release(holdId);
    expect((await held.promise).status).toBe(200);
  });

  it("performs a held request whose client died while it waited (an unknown outcome for the client)", async () => {
    const token = await h.api.token();
    const holdId = await h.emulator.control.hold("POST /devices", 0);
    const sn = serial();
    const body = JSON.stringify({ snDevEUI: sn, name: "orphan" });
    const client = httpRequest(`${h.emulator.url}/device/openapi/v1/devices`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    });
    const clientError = new Promise<Error>((resolve) => client.on("error", resolve));
    client.end(body);
    await h.emulator.control.waitUntilHeld(holdId);
    client.destroy();
    await clientError;
    expect(await serialsOnPlatform()).toEqual([]);
    expect(await h.emulator.control.release(holdId)).toBe(1);
    expect(await serialsOnPlatform()).toEqual([sn]);
  });

  it("releases everything on DELETE /holds, each hold as it says, and on reset, unperformed", async () => {
    await h.api.token();
    const performing = await h.emulator.control.hold("POST /devices", 0, "perform");
    const failing = await h.emulator.control.hold("POST /devices/search", 0, "fail");
    const sn = serial();
    const added = add(sn);
    const search = watched(h.api.call("POST", "/devices/search", { pageNumber: 1, pageSize: 10 }));
    await h.emulator.control.waitUntilHeld(performing);
    await h.emulator.control.waitUntilHeld(failing);
    expect(await h.emulator.control.releaseAll()).toBe(2);
    expect((await added.promise).status).toBe(200);
    expect((await search.promise).status).toBe(503);
    expect(await serialsOnPlatform()).toEqual([sn]);

    const holdId = await h.emulator.control.hold("POST /devices", 0, "perform");
    const afterReset = add(serial());
    await h.emulator.control.waitUntilHeld(holdId);
    await h.emulator.control.reset();
    expect((await afterReset.promise).status).toBe(503);
    expect(await h.emulator.control.holds()).toEqual([]);
    expect(await serialsOnPlatform()).toEqual([]);
  });

  it("refuses an unknown route key or a bad count, naming the field; and an unknown hold id", async () => {
    await expect(h.emulator.control.hold("POST /device", 1)).rejects.toThrow(
      /route: must be a route key as the counters spell it, one of: .*POST \/devices/,
    );
    await expect(h.emulator.control.hold("POST /devices", -1)).rejects.toThrow(/after:/);
    const error = await h.emulator.control.release("999").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EmulatorControlError);
    expect((error as EmulatorControlError).status).toBe(404);
    await expect(h.emulator.control.waitUntilHeld("999")).rejects.toThrow(/hold 999 is not set/);
  });
});
