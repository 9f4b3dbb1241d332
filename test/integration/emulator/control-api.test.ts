import { describe, expect, it } from "vitest";
import { fetch } from "undici";
import { createApp, startEmulator } from "../../../emulator";
import { PlatformApi } from "./support/platform-api";
import { addDevice, serial, useEmulator, type DeviceJson } from "./support/fixtures";

const h = useEmulator();

describe("control API availability", () => {
  it("answers 404 under /__emulator/ unless control is enabled", async () => {
    const off = await startEmulator({ control: false });
    const app = createApp();
    await app.listen({ port: 0, host: "127.0.0.1" });
    try {
      const address = app.server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      for (const base of [off.url, `http://127.0.0.1:${port}`]) {
        const response = await fetch(`${base}/__emulator/state`);
        expect(response.status).toBe(404);
        expect(await response.json()).toMatchObject({ status: "Failed", errCode: "route_not_found" });
      }
      await expect(off.control.counters()).rejects.toThrow(/404/);
    } finally {
      await off.stop();
      await app.close();
    }
  });
});

describe("reset and clock", () => {
  it("reset clears devices, RPS records, tasks, faults, counters, tokens and the clock offset; credentials stay", async () => {
    const { deviceId } = await addDevice(h.api, serial());
    await h.api.ok("POST", "/rps/profile", { sn: serial(), profileUrl: "https://rps.example.com/p" });
    await h.api.ok("POST", "/tasks", {
      type: "TSL",
      deviceIds: [deviceId],
      config: { properties: { reportInterval: 700 } },
    });
    await h.emulator.control.setFaults({ kinds: ["500"], pathIncludes: "/nothing-matches" });
    await h.emulator.control.advanceClock(100);
    const oldToken = await h.api.token();
    await h.emulator.control.reset();
    expect(await h.emulator.control.state()).toEqual({ devices: [], rpsRecords: [], tasks: [] });
    expect(await h.emulator.control.counters()).toEqual({
      total: 0,
      byRoute: {},
      faults: {},
      rateLimited: {},
    });
    const faults = await fetch(`${h.emulator.url}/__emulator/faults`).then((r) => r.json());
    expect(faults).toMatchObject({ data: null });
    const api = new PlatformApi(h.emulator.url);
    expect(
      (await api.call("POST", "/rps/search", { pageNumber: 1, pageSize: 1 }, { token: oldToken })).status,
    ).toBe(401);
    expect((await api.call("POST", "/rps/search", { pageNumber: 1, pageSize: 1 })).status).toBe(200);
    const clock = await fetch(`${h.emulator.url}/__emulator/clock/advance`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ seconds: 1 }),
    }).then((r) => r.json() as Promise<{ data: { offsetSeconds: number } }>);
    expect(clock.data.offsetSeconds).toBe(1);
  });

  it("reset can keep tokens", async () => {
    const token = await h.api.token();
    await h.emulator.control.reset({ keepTokens: true });
    expect((await h.api.call("POST", "/rps/search", { pageNumber: 1, pageSize: 1 }, { token })).status).toBe(
      200,
    );
  });

  it("refuses to move the clock backwards", async () => {
    await expect(h.emulator.control.advanceClock(-1)).rejects.toThrow(/400/);
  });
});

describe("out-of-band device changes", () => {
  it("changes name, description, tags, statuses and properties as if done elsewhere", async () => {
    const { deviceId } = await addDevice(h.api, serial("24"), { description: "before" });
    const before = await h.api.ok<DeviceJson>("GET", `/devices/${deviceId}`);
    await new Promise((r) => setTimeout(r, 5));
    const changed = await h.emulator.control.changeDevice(deviceId, {
      name: "renamed-out-of-band",
      description: null,
      tag: ["drift"],
      connectStatus: "DISCONNECT",
      licenseStatus: "INVALID",
      rpsStatus: "ACTIVATE",
      properties: { reportInterval: 3600, temperature: 21.5 },
    });
    expect(changed).toMatchObject({ deviceId, name: "renamed-out-of-band", tag: ["drift"] });
    const after = await h.api.ok<DeviceJson>("GET", `/devices/${deviceId}`);
    expect(after).toMatchObject({
      name: "renamed-out-of-band",
      tag: ["drift"],
      connectStatus: "DISCONNECT",
      licenseStatus: "INVALID",
      rpsStatus: "ACTIVATE",
    });
    expect(after.description).toBeUndefined();
    expect(after.lastUpdateTime).toBeGreaterThan(before.lastUpdateTime);
    const config = await h.api.ok<{ properties: Record<string, unknown> }>(
      "GET",
      `/devices/${deviceId}/config`,
    );
    expect(config.properties.reportInterval).toBe(3600);
  });

  it("sendAs makes the API send any status or deviceType verbatim, in query and search alike, until null", async () => {
    const sn = serial("24");
    const { deviceId } = await addDevice(h.api, sn);
    await h.emulator.control.changeDevice(deviceId, {
      sendAs: { rpsStatus: "ENABELD", connectStatus: "SLEEP", licenseStatus: "TRIAL", deviceType: "HUB" },
    });
    const odd = { rpsStatus: "ENABELD", connectStatus: "SLEEP", licenseStatus: "TRIAL", deviceType: "HUB" };
    expect(await h.api.ok<DeviceJson>("GET", `/devices/${deviceId}`)).toMatchObject(odd);
    const page = await h.api.ok<{ content: DeviceJson[] }>("POST", "/devices/search", {
      pageSize: 10,
      pageNumber: 1,
      sn,
    });
    expect(page.content[0]).toMatchObject(odd);
    await h.emulator.control.changeDevice(deviceId, { sendAs: { connectStatus: null } });
    expect(await h.api.ok<DeviceJson>("GET", `/devices/${deviceId}`)).toMatchObject({
      rpsStatus: "ENABELD",
      connectStatus: "ONLINE",
    });
    await expect(
      h.emulator.control.changeDevice(deviceId, { sendAs: { name: "x" } as never }),
    ).rejects.toThrow(/400/);
  });

  it("refuses values that do not fit the TSL model, and unknown devices", async () => {
    const { deviceId } = await addDevice(h.api, serial("24"));
    await expect(
      h.emulator.control.changeDevice(deviceId, { properties: { reportInterval: "x" } }),
    ).rejects.toThrow(/400/);
    await expect(h.emulator.control.changeDevice("1735999999999999999", { name: "x" })).rejects.toThrow(
      /404 device_not_found/,
    );
  });

  it("deletes a device out of band", async () => {
    const { deviceId } = await addDevice(h.api, serial());
    await h.emulator.control.deleteDevice(deviceId);
    expect((await h.api.call("GET", `/devices/${deviceId}`)).status).toBe(404);
    await expect(h.emulator.control.deleteDevice(deviceId)).rejects.toThrow(/404/);
  });

  it("seeds devices in this application or another one", async () => {
    const mine = await h.emulator.control.seedDevice({ sn: serial("66"), name: "seeded", tag: ["s"] });
    expect(mine).toMatchObject({
      applicationId: "1650000000000000017",
      model: "LinkHub G66",
      deviceType: "GATEWAY",
    });
    expect((await h.api.ok<DeviceJson>("GET", `/devices/${mine.deviceId}`)).name).toBe("seeded");
    const theirs = await h.emulator.control.seedDevice({
      sn: serial(),
      name: "other",
      applicationId: "1650000000000000999",
    });
    expect(theirs.applicationId).toBe("1650000000000000999");
    const page = await h.api.ok<{ total: number }>("POST", "/devices/search", {
      pageNumber: 1,
      pageSize: 10,
    });
    expect(page.total).toBe(1);
    await expect(h.emulator.control.seedDevice({ sn: mine.sn, name: "dup" })).rejects.toThrow(/409/);
    await expect(h.emulator.control.seedDevice({ sn: "short", name: "x" })).rejects.toThrow(/400/);
  });
});

describe("state, tasks and counters", () => {
  it("shows devices, RPS records and tasks with ids as strings of digits", async () => {
    const { deviceId, sn } = await addDevice(h.api, serial("5B"));
    const rpsSn = serial("AC");
    await h.api.ok("POST", "/rps/profile", { sn: rpsSn, profileUrl: "https://rps.example.com/p" });
    await h.api.ok("POST", "/tasks", {
      type: "TSL",
      deviceIds: [deviceId],
      config: { properties: { sensitivity: 2 } },
    });
    const state = await h.emulator.control.state();
    expect(state.devices).toEqual([
      expect.objectContaining({
        deviceId,
        sn,
        modelKey: "sub-device",
        deviceType: "SUB_DEVICE",
        tslVersion: "1.0.3",
      }),
    ]);
    expect(state.rpsRecords).toEqual([
      expect.objectContaining({ sn: rpsSn, profileUrl: "https://rps.example.com/p" }),
    ]);
    expect(state.tasks).toEqual([
      expect.objectContaining({ deviceId, type: "TSL", taskId: expect.stringMatching(/^\d+$/) }),
    ]);
    expect(await h.emulator.control.tasks()).toEqual([expect.objectContaining({ deviceId })]);
  });

  it("counts every platform request by method and route pattern across versions, faulted ones too, control requests not", async () => {
    const token = await h.api.token();
    const { deviceId, sn } = await addDevice(h.api, serial("24"));
    const rps = serial();
    const calls: [string, string, unknown?, string?][] = [
      ["POST", "/devices/search", { pageNumber: 1, pageSize: 1 }, "v1.0"],
      ["GET", `/devices/${deviceId}`, undefined, "V1.0"],
      ["GET", `/devices/${deviceId}`],
      ["PUT", "/devices", { deviceId, name: "n" }],
      ["GET", `/devices/${deviceId}/thing-specification`],
      ["PATCH", `/devices/${deviceId}/properties`, { properties: { reportInterval: 600 } }],
      ["GET", `/devices/${deviceId}/config`],
      [
        "POST",
        "/tasks",
        { type: "TSL", deviceIds: [deviceId], config: { properties: { reportInterval: 600 } } },
      ],
      ["POST", "/rps/profile", { sn: rps, profileUrl: "https://rps.example.com/p" }],
      ["POST", "/rps/search", { pageNumber: 1, pageSize: 1 }],
      ["DELETE", `/rps/${rps}`],
      ["GET", `/devices/${deviceId}/properties/history`],
      ["POST", `/devices/${deviceId}/services/call`, {}],
      ["DELETE", `/devices/${deviceId}`],
    ];
    for (const [method, path, body, version] of calls)
      await h.api.call(method, path, body, { token, version });
    await h.emulator.control.setFaults({ kinds: ["500"], times: 1 });
    await h.api.call("GET", `/devices/${deviceId}`, undefined, { token });
    await h.emulator.control.state();
    const counters = await h.emulator.control.counters();
    expect(counters.byRoute).toEqual({
      "POST /oauth/token": 1,
      "POST /devices": 1,
      "POST /devices/search": 1,
      "GET /devices/{deviceId}": 3,
      "PUT /devices": 1,
      "GET /devices/{deviceId}/thing-specification": 1,
      "PATCH /devices/{deviceId}/properties": 1,
      "GET /devices/{deviceId}/config": 1,
      "POST /tasks": 1,
      "POST /rps/profile": 1,
      "POST /rps/search": 1,
      "DELETE /rps/{sn}": 1,
      "GET /devices/{deviceId}/properties/history": 1,
      "POST /devices/{deviceId}/services/call": 1,
      "DELETE /devices/{deviceId}": 1,
    });
    expect(counters.total).toBe(17);
    expect(sn).toBeTruthy();
    await h.emulator.control.resetCounters();
    expect(await h.emulator.control.counters()).toEqual({
      total: 0,
      byRoute: {},
      faults: {},
      rateLimited: {},
    });
  });
});

describe("issued tokens", () => {
  it("lists every access and refresh token issued, so tests can prove none leaked", async () => {
    const first = await h.api.issueToken();
    const second = await h.api.issueToken();
    const issued = await h.emulator.control.issuedTokens();
    for (const token of [first, second].flatMap((t) => [t.access_token, t.refresh_token])) {
      expect(issued).toContain(token);
    }
  });
});
