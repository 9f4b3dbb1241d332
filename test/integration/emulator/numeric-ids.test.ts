import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../../emulator";
import { PlatformApi } from "./support/platform-api";
import { serial } from "./support/fixtures";

let emulator: RunningEmulator;
let api: PlatformApi;

beforeAll(async () => {
  emulator = await startEmulator({ numericIds: true });
  api = new PlatformApi(emulator.url);
});
afterAll(() => emulator.stop());

/** The digits of a JSON number literal for `key` in raw response text. */
function numberLiteral(text: string, key: string): string | undefined {
  return new RegExp(`"${key}":(\\d+)[,}]`).exec(text)?.[1];
}

describe("numericIds", () => {
  it("writes deviceId as an exact JSON number beyond 2^53 in the add result", async () => {
    const response = await api.call("POST", "/devices", { snDevEUI: serial(), name: "n" });
    const digits = numberLiteral(response.text, "deviceId");
    expect(digits).toMatch(/^\d{19}$/);
    expect(BigInt(digits ?? "0") > 2n ** 53n).toBe(true);
    // Parsed losslessly, the number arrives as a bigint with every digit.
    expect(response.body.data).toMatchObject({ deviceId: BigInt(digits ?? "0") });
    // A plain JSON.parse would have rounded it.
    expect(String((JSON.parse(response.text) as { data: { deviceId: number } }).data.deviceId)).not.toBe(
      digits,
    );
  });

  it("writes deviceId and applicationId as numbers in device queries and search results", async () => {
    const added = await api.call("POST", "/devices", { snDevEUI: serial(), name: "n" });
    const deviceId = numberLiteral(added.text, "deviceId") ?? "";
    const query = await api.call("GET", `/devices/${deviceId}`);
    expect(numberLiteral(query.text, "deviceId")).toBe(deviceId);
    expect(numberLiteral(query.text, "applicationId")).toBe("1650000000000000017");
    const search = await api.call("POST", "/devices/search", { pageNumber: 1, pageSize: 100, sn: "" });
    expect(search.text).toContain(`"deviceId":${deviceId}`);
  });

  it("accepts deviceId numbers in requests and writes taskIds as numbers", async () => {
    const added = await api.call("POST", "/devices", { snDevEUI: serial(), name: "n" });
    const deviceId = numberLiteral(added.text, "deviceId") ?? "";
    const put = await api.call("PUT", "/devices", undefined, {
      rawBody: `{"deviceId":${deviceId},"name":"renamed"}`,
    });
    expect(put.status).toBe(200);
    const tasks = await api.call("POST", "/tasks", undefined, {
      rawBody: `{"type":"TSL","deviceIds":[${deviceId}],"config":{"properties":{"reportInterval":900}}}`,
    });
    expect(tasks.text).toMatch(new RegExp(`"deviceId":${deviceId},"taskId":\\d{19}}`));
  });
});

describe("default ids", () => {
  it("writes ids as strings of digits without numericIds", async () => {
    const plain = await startEmulator();
    try {
      const response = await new PlatformApi(plain.url).call("POST", "/devices", {
        snDevEUI: serial(),
        name: "s",
      });
      expect(response.text).toMatch(/"deviceId":"\d{19}"/);
    } finally {
      await plain.stop();
    }
  });
});
