import { fetch } from "undici";
import { describe, expect, it } from "vitest";
import { addDevice, serial, useEmulator } from "./support/fixtures";

const h = useEmulator();

describe("response envelope", () => {
  it("carries a fresh requestId on every response, success or failure, and JSON content", async () => {
    const { deviceId } = await addDevice(h.api, serial());
    const responses = [
      await h.api.call("GET", `/devices/${deviceId}`),
      await h.api.call("GET", `/devices/${deviceId}`),
      await h.api.call("GET", "/devices/1735999999999999999"),
      await h.api.call("GET", "/devices/1735999999999999999"),
      await h.api.call("GET", `/devices/${deviceId}`, undefined, { token: null }),
    ];
    const ids = responses.map((r) => r.body.requestId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const response of responses) {
      expect(response.headers.get("content-type")).toMatch(/^application\/json/);
      expect(response.body.requestId).toMatch(/^[0-9a-f]{32}$/);
    }
    expect(responses[0]?.body.status).toBe("Success");
    expect(responses[2]?.body).toEqual({
      status: "Failed",
      requestId: expect.any(String),
      errCode: "device_not_found",
      errMsg: expect.stringContaining("1735999999999999999"),
      data: null,
    });
  });

  it("answers unknown routes with 404 route_not_found in the envelope", async () => {
    const response = await fetch(`${h.emulator.url}/device/openapi/v1/gadgets`);
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ status: "Failed", errCode: "route_not_found", data: null });
  });

  it("refuses a body that is not JSON by content type with 400", async () => {
    const token = await h.api.token();
    const response = await fetch(`${h.emulator.url}/device/openapi/v1/devices`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "text/plain" },
      body: "hello",
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ errCode: "invalid_parameter" });
  });
});

describe("operations the API document lists without details, as the platform's reference gives them", () => {
  it("answers the history with a page in data, and a service call with status and requestId but no data", async () => {
    const { deviceId } = await addDevice(h.api, serial());
    const history = await h.api.call("GET", `/devices/${deviceId}/properties/history?startTime=0&endTime=1`);
    expect(history.status).toBe(200);
    expect(history.body).toMatchObject({ status: "Success", data: { list: [], pageSize: 100 } });
    const call = await h.api.call("POST", `/devices/${deviceId}/services/call`, { serviceId: "reboot" });
    expect(call.status).toBe(200);
    expect(call.body).toEqual({ status: "Success", requestId: expect.stringMatching(/^[0-9a-f]{32}$/) });
  });

  it.each([
    ["GET", "/devices/{id}/properties/history?startTime=0&endTime=1"],
    ["POST", "/devices/{id}/services/call"],
  ])("%s %s needs a token", async (method, template) => {
    const { deviceId } = await addDevice(h.api, serial());
    const path = template.replace("{id}", deviceId);
    const body = method === "POST" ? { serviceId: "reboot" } : undefined;
    expect((await h.api.call(method, path, body, { token: null })).status).toBe(401);
  });
});
