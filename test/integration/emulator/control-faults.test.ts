import { request as httpRequest } from "node:http";
import { describe, expect, it } from "vitest";
import { addDevice, serial, useEmulator } from "./support/fixtures";

const h = useEmulator();

const pause = () => new Promise((resolve) => setTimeout(resolve, 20));

async function devicesOnPlatform(): Promise<string[]> {
  return (await h.emulator.control.state()).devices.map((d) => d.sn);
}

/** Resolves with the error of a request whose connection was dropped without an answer. */
async function droppedConnection(request: Promise<unknown>): Promise<Error> {
  const error = await request.then(
    () => undefined,
    (e: unknown) => e as Error,
  );
  if (!error) throw new Error("expected the connection to be dropped, but a response arrived");
  return error;
}

describe("injected HTTP faults", () => {
  it.each([
    ["500", 500, "internal_error"],
    ["503", 503, "service_unavailable"],
    ["429", 429, "rate_limited"],
  ] as const)(
    "kind %s answers %i %s in the failure envelope and does not perform the operation",
    async (kind, status, errCode) => {
      await h.api.token();
      await h.emulator.control.setFaults({ rate: 1, kinds: [kind], retryAfterSeconds: 7 });
      const sn = serial();
      const response = await h.api.call("POST", "/devices", { snDevEUI: sn, name: "x" });
      expect(response.status).toBe(status);
      expect(response.body).toMatchObject({
        status: "Failed",
        errCode,
        data: null,
        requestId: expect.any(String),
      });
      if (kind !== "500") expect(response.headers.get("retry-after")).toBe("7");
      expect(await devicesOnPlatform()).toEqual([]);
      const counters = await h.emulator.control.counters();
      expect(counters.byRoute["POST /devices"]).toBe(1);
      expect(counters.faults).toEqual({ [kind]: 1 });
    },
  );

  it("reset drops the connection without an answer and does not perform the operation", async () => {
    await h.api.token();
    await h.emulator.control.setFaults({ kinds: ["reset"] });
    const error = await droppedConnection(h.api.call("POST", "/devices", { snDevEUI: serial(), name: "x" }));
    expect(error.message).toMatch(/fetch failed|socket|reset/i);
    expect(await devicesOnPlatform()).toEqual([]);
  });

  it("reset-after performs the operation, then drops the connection (a lost response)", async () => {
    await h.api.token();
    await h.emulator.control.setFaults({
      kinds: ["reset-after"],
      methods: ["POST"],
      pathIncludes: "/devices",
    });
    const sn = serial();
    await droppedConnection(h.api.call("POST", "/devices", { snDevEUI: sn, name: "x" }));
    expect(await devicesOnPlatform()).toEqual([sn]);
  });

  it("delay serves the request normally after delayMs", async () => {
    await h.api.token();
    await h.emulator.control.setFaults({ kinds: ["delay"], delayMs: 300 });
    const started = Date.now();
    const result = await addDevice(h.api, serial());
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    expect(result.deviceId).toMatch(/^\d+$/);
  });

  it("delay performs the request even if its client died while it waited", async () => {
    const token = await h.api.token();
    await h.emulator.control.setFaults({ kinds: ["delay"], delayMs: 300 });
    const sn = serial();
    const client = httpRequest(`${h.emulator.url}/device/openapi/v1/devices`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    });
    client.on("error", () => undefined);
    client.end(JSON.stringify({ snDevEUI: sn, name: "gave-up" }));
    // Polls until the request arrived, then kills the client; polls until it was performed. The
    // bounds only guard against a hang.
    for (let i = 0; i < 1_000 && !(await h.emulator.control.counters()).byRoute["POST /devices"]; i += 1)
      await pause();
    client.destroy();
    for (let i = 0; i < 1_000 && (await devicesOnPlatform()).length === 0; i += 1) await pause();
    expect(await devicesOnPlatform()).toEqual([sn]);
  });

  it("faults the token endpoint too", async () => {
    await h.emulator.control.setFaults({ kinds: ["503"], pathIncludes: "/oauth/token" });
    const response = await h.api.tokenRequest({
      grant_type: "client_credentials",
      client_id: "demo-client",
      client_secret: "demo-secret",
    });
    expect(response.status).toBe(503);
  });
});

describe("fault selection", () => {
  it("applies only to the given methods and paths", async () => {
    await h.api.token();
    await h.emulator.control.setFaults({
      kinds: ["500"],
      methods: ["get"],
      pathIncludes: "/thing-specification",
    });
    const { deviceId } = await addDevice(h.api, serial());
    expect((await h.api.call("GET", `/devices/${deviceId}`)).status).toBe(200);
    expect((await h.api.call("GET", `/devices/${deviceId}/thing-specification`)).status).toBe(500);
  });

  it("never faults at rate 0 and stops after `times` faults", async () => {
    await h.api.token();
    await h.emulator.control.setFaults({ rate: 0, kinds: ["500"] });
    expect((await h.api.call("POST", "/rps/search", { pageNumber: 1, pageSize: 1 })).status).toBe(200);
    await h.emulator.control.setFaults({ kinds: ["500"], times: 2 });
    const statuses = [];
    for (let i = 0; i < 4; i += 1)
      statuses.push((await h.api.call("POST", "/rps/search", { pageNumber: 1, pageSize: 1 })).status);
    expect(statuses).toEqual([500, 500, 200, 200]);
  });

  it("makes the same choices for the same seed", async () => {
    await h.api.token();
    const run = async (): Promise<number[]> => {
      await h.emulator.control.setFaults({ rate: 0.5, kinds: ["500", "503", "429"], seed: 42 });
      const statuses: number[] = [];
      for (let i = 0; i < 20; i += 1)
        statuses.push((await h.api.call("POST", "/rps/search", { pageNumber: 1, pageSize: 1 })).status);
      return statuses;
    };
    const first = await run();
    expect(await run()).toEqual(first);
    expect(new Set(first).size).toBeGreaterThan(2);
    expect(first).toContain(200);
  });

  it("clearFaults serves normally again", async () => {
    await h.api.token();
    await h.emulator.control.setFaults({ kinds: ["500"] });
    await h.emulator.control.clearFaults();
    expect((await h.api.call("POST", "/rps/search", { pageNumber: 1, pageSize: 1 })).status).toBe(200);
  });

  it("refuses an invalid fault configuration", async () => {
    await expect(h.emulator.control.setFaults({ rate: 2, kinds: ["500"] })).rejects.toThrow(
      /invalid_parameter/,
    );
    await expect(h.emulator.control.setFaults({ kinds: ["teapot" as "500"] })).rejects.toThrow(/400/);
  });
});

describe("dropProperties: partial application", () => {
  it("PATCH neither applies nor reports the dropped properties and STRUCT children", async () => {
    const { deviceId } = await addDevice(h.api, serial("24"));
    await h.emulator.control.setFaults({ dropProperties: ["label", "alarmThreshold.low"] });
    const response = await h.api.ok<{ properties: Record<string, unknown> }>(
      "PATCH",
      `/devices/${deviceId}/properties`,
      {
        properties: { reportInterval: 900, label: "dropped", alarmThreshold: { high: 40, low: 10 } },
      },
    );
    expect(response.properties).toEqual({ reportInterval: 900, alarmThreshold: { high: 40 } });
    const { properties } = await h.api.ok<{ properties: Record<string, unknown> }>(
      "GET",
      `/devices/${deviceId}/config`,
    );
    expect(properties).toMatchObject({
      reportInterval: 900,
      label: "sensor",
      alarmThreshold: { "alarmThreshold.high": 40, "alarmThreshold.low": 0 },
    });
  });

  it("tasks do not apply the dropped properties either", async () => {
    const { deviceId } = await addDevice(h.api, serial("24"));
    await h.emulator.control.setFaults({ dropProperties: ["ledEnabled"] });
    await h.api.ok("POST", "/tasks", {
      type: "TSL",
      deviceIds: [deviceId],
      config: { properties: { ledEnabled: false, reportInterval: 700 } },
    });
    let task;
    // Polls until the task ran; the bound only guards against a hang on a busy machine.
    for (let i = 0; i < 1_000 && task?.status !== "SUCCEEDED"; i += 1) {
      await new Promise((r) => setTimeout(r, 20));
      task = (await h.emulator.control.tasks())[0];
    }
    expect(task).toMatchObject({ status: "SUCCEEDED", applied: { reportInterval: 700 } });
    const { properties } = await h.api.ok<{ properties: Record<string, unknown> }>(
      "GET",
      `/devices/${deviceId}/config`,
    );
    expect(properties).toMatchObject({ ledEnabled: true, reportInterval: 700 });
  });
});
