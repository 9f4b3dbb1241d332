import { describe, expect, it } from "vitest";
import { addDevice, serial, useEmulator, type DeviceJson, type Page } from "./support/fixtures";

const h = useEmulator();

interface RpsRecord {
  sn: string;
  profileUrl: string;
}

const url = (sn: string, v = 1) => `https://rps.example.com/profiles/${sn}?v=${v}`;

async function setProfile(sn: string, profileUrl = url(sn)) {
  return h.api.call<string>("POST", "/rps/profile", { sn, profileUrl });
}

async function listRps(body: Record<string, unknown> = {}): Promise<Page<RpsRecord>> {
  return h.api.ok<Page<RpsRecord>>("POST", "/rps/search", { pageNumber: 1, pageSize: 100, ...body });
}

describe("RPS records", () => {
  it("specifies a profile URL (data is a string), lists it, and replaces the URL when specified again", async () => {
    const sn = serial("AC");
    const created = await setProfile(sn);
    expect(created.status).toBe(200);
    expect(typeof created.body.data).toBe("string");
    expect((await listRps()).content).toEqual([{ sn, profileUrl: url(sn) }]);
    await setProfile(sn, url(sn, 2));
    const listed = await listRps();
    expect(listed.total).toBe(1);
    expect(listed.content).toEqual([{ sn, profileUrl: url(sn, 2) }]);
  });

  it("deletes a record (data is a string) and answers 404 rps_record_not_found when there is none", async () => {
    const sn = serial();
    await setProfile(sn);
    const deleted = await h.api.call<string>("DELETE", `/rps/${sn}`);
    expect(deleted.status).toBe(200);
    expect(typeof deleted.body.data).toBe("string");
    expect((await listRps()).total).toBe(0);
    const again = await h.api.call("DELETE", `/rps/${sn}`);
    expect(again.status).toBe(404);
    expect(again.body.errCode).toBe("rps_record_not_found");
  });

  it("refuses malformed serial numbers and profile URLs with 400", async () => {
    expect((await setProfile("12345", "https://x.example.com")).status).toBe(400);
    expect((await setProfile(serial(), "not a url")).status).toBe(400);
    expect((await setProfile(serial(), "ftp://rps.example.com/p")).status).toBe(400);
    expect((await h.api.call("POST", "/rps/profile", { sn: serial() })).status).toBe(400);
    expect((await h.api.call("DELETE", "/rps/xyz")).status).toBe(400);
  });

  it("pages from 1 and sorts by sn or profileUrl in either direction", async () => {
    const serials = ["AC0000000000000C", "AC0000000000000A", "AC0000000000000B"];
    for (const [i, sn] of serials.entries()) await setProfile(sn, `https://rps.example.com/${3 - i}`);
    expect((await listRps()).content.map((r) => r.sn)).toEqual(serials);
    const bySn = await listRps({ sorts: [{ property: "sn", direction: "asc" }] });
    expect(bySn.content.map((r) => r.sn)).toEqual([
      "AC0000000000000A",
      "AC0000000000000B",
      "AC0000000000000C",
    ]);
    const byUrl = await listRps({ sorts: [{ property: "profileUrl", direction: "desc" }] });
    expect(byUrl.content.map((r) => r.profileUrl)).toEqual([
      "https://rps.example.com/3",
      "https://rps.example.com/2",
      "https://rps.example.com/1",
    ]);
    const second = await listRps({ pageNumber: 2, pageSize: 2 });
    expect(second).toMatchObject({ pageNumber: 2, pageSize: 2, total: 3 });
    expect(second.content).toHaveLength(1);
    for (const body of [
      { pageNumber: 1, pageSize: 101 },
      { pageNumber: 0, pageSize: 1 },
      { pageNumber: 1, pageSize: 1, sorts: [{ property: "x", direction: "asc" }] },
    ]) {
      expect((await h.api.call("POST", "/rps/search", body)).status).toBe(400);
    }
  });
});

describe("RPS / device exclusion", () => {
  it("refuses to add a device whose serial number has an RPS record (409 rps_record_exists), until the record is deleted", async () => {
    const sn = serial("66");
    await setProfile(sn);
    const blocked = await h.api.call("POST", "/devices", { snDevEUI: sn.toLowerCase(), name: "blocked" });
    expect(blocked.status).toBe(409);
    expect(blocked.body.errCode).toBe("rps_record_exists");
    expect((await h.emulator.control.state()).devices).toHaveLength(0);
    await h.api.ok("DELETE", `/rps/${sn}`);
    const added = await addDevice(h.api, sn);
    expect((await h.api.ok<DeviceJson>("GET", `/devices/${added.deviceId}`)).sn).toBe(sn);
  });

  it("refuses an RPS profile for a serial number that is a device on the platform (409 device_on_platform)", async () => {
    const sn = serial();
    await addDevice(h.api, sn);
    const response = await setProfile(sn.toLowerCase());
    expect(response.status).toBe(409);
    expect(response.body.errCode).toBe("device_on_platform");
    expect((await listRps()).total).toBe(0);
  });

  it("refuses an RPS profile for a device of another application too", async () => {
    const sn = serial();
    await h.emulator.control.seedDevice({ sn, name: "elsewhere", applicationId: "1650000000000000999" });
    expect((await setProfile(sn)).body.errCode).toBe("device_on_platform");
  });

  it("allows the RPS profile again once the device is deleted", async () => {
    const sn = serial();
    const { deviceId } = await addDevice(h.api, sn);
    await h.api.ok("DELETE", `/devices/${deviceId}`);
    expect((await setProfile(sn)).status).toBe(200);
  });
});
