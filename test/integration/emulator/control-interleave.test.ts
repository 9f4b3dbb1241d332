import { describe, expect, it } from "vitest";
import { addDevice, serial, useEmulator, type DeviceJson, type Page } from "./support/fixtures";

const h = useEmulator();

async function page(pageNumber: number): Promise<Page<DeviceJson>> {
  return h.api.ok<Page<DeviceJson>>("POST", "/devices/search", { pageNumber, pageSize: 2 });
}

describe("interleave: another writer's changes right before the Nth request of a route", () => {
  it("adds and deletes devices and RPS records between two pages of a listing, exactly once", async () => {
    await h.emulator.control.reset();
    const ids: string[] = [];
    for (let i = 0; i < 4; i += 1) ids.push((await addDevice(h.api, serial())).deviceId);
    const [added, record, gone] = [serial(), serial("AC"), serial("AC")];
    await h.api.ok("POST", "/rps/profile", { sn: gone, profileUrl: "https://rps.example.com/p" });
    const scheduled = await h.emulator.control.interleave({
      route: "POST /devices/search",
      before: 2,
      addDevices: [{ sn: added, name: "other-writer" }],
      deleteDevices: [ids[0] as string],
      addRpsRecords: [{ sn: record, profileUrl: "https://rps.example.com/q" }],
      deleteRpsRecords: [gone],
    });
    expect(scheduled).toEqual({ pending: 1, done: [] });

    const first = await page(1);
    expect(first.total).toBe(4);
    expect((await h.emulator.control.interleavings()).pending).toBe(1);
    // Another route's requests do not count.
    await h.api.ok("GET", `/devices/${ids[1] as string}`);
    const second = await page(2);
    expect(second.total).toBe(4); // one added, one deleted
    // The delete shifted the third device onto page 1, already read: the listing missed it.
    const seen = [...first.content, ...second.content].map((d) => d.deviceId);
    expect(seen).not.toContain(ids[2]);
    const view = await h.emulator.control.interleavings();
    expect(view.pending).toBe(0);
    expect(view.done).toEqual([
      {
        route: "POST /devices/search",
        before: 2,
        added: [{ sn: added, deviceId: expect.stringMatching(/^\d+$/) }],
        deleted: [ids[0]],
        rpsAdded: [record],
        rpsDeleted: [gone],
      },
    ]);
    const state = await h.emulator.control.state();
    expect(state.rpsRecords.map((r) => r.sn)).toEqual([record]);
    // Done once: the third page changes nothing.
    await page(3);
    expect((await h.emulator.control.state()).devices).toHaveLength(4);
  });

  it("skips what cannot be applied, refuses a bad schedule, and is cleared by reset", async () => {
    await h.emulator.control.reset();
    const { deviceId, sn } = await addDevice(h.api, serial());
    await h.emulator.control.interleave({
      route: "GET /devices/{deviceId}",
      before: 1,
      addDevices: [{ sn, name: "duplicate" }],
      deleteDevices: ["1"],
    });
    await h.api.ok("GET", `/devices/${deviceId}`);
    expect((await h.emulator.control.interleavings()).done).toEqual([
      { route: "GET /devices/{deviceId}", before: 1, added: [], deleted: [], rpsAdded: [], rpsDeleted: [] },
    ]);
    await expect(h.emulator.control.interleave({ route: "POST /devices/search", before: 0 })).rejects.toThrow(
      /400/,
    );
    await h.emulator.control.interleave({ route: "POST /devices/search", before: 1 });
    await h.emulator.control.reset();
    expect(await h.emulator.control.interleavings()).toEqual({ pending: 0, done: [] });
  });
});
