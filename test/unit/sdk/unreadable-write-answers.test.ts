/**
 * Every write answered 2xx with a body that is not a readable success — empty, JSON cut off, an
 * envelope whose `requestId` has the wrong type, no envelope at all, an HTML page — generated with
 * fast-check: the outcome is unknown (the platform may have performed it), never "not sent" or a
 * wrong base URL; the write is not sent again; Add a Device looks the serial number up instead.
 */
import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  clearTokenCache,
  DevicePlatformError,
  errorFromResponse,
  ResponseShapeError,
  type DevicePlatformClient,
} from "../../../sdk";
import { FakePlatform, ok } from "./support/fake-platform";

const PREFIX = "/device/openapi/v1";
const SN = "24E1240000000011";
let platform: FakePlatform;

beforeEach(() => {
  clearTokenCache();
  platform = new FakePlatform();
});
afterEach(() => platform.close());

/** A 2xx body that is not the platform's success: the text sent, verbatim. */
const unreadableBody = fc.oneof(
  fc.constant(""),
  fc.constant("   \n"),
  fc
    .json()
    .map((json) => json.slice(0, Math.max(1, Math.floor(json.length / 2))))
    .filter(notJson),
  fc
    .constantFrom({ id: "r" }, ["r"])
    .map((requestId) => JSON.stringify({ status: "Success", requestId, data: { deviceId: "11", sn: SN } })),
  fc
    .jsonValue()
    .filter(notEnvelope)
    .map((value) => JSON.stringify(value)),
  fc.string().map((text) => `<!DOCTYPE HTML><html>${text}</html>`),
);

function notJson(text: string): boolean {
  try {
    JSON.parse(text);
    return false;
  } catch {
    return true;
  }
}

function notEnvelope(value: unknown): boolean {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return value !== null;
  const status = (value as { status?: unknown }).status;
  return status !== "Success" && status !== "Failed";
}

/** The writes of the client: their route, and a call. */
const WRITES: [string, (client: DevicePlatformClient) => Promise<unknown>][] = [
  ["PUT /devices", (c) => c.updateDevice({ deviceId: "11", name: "n" })],
  [`DELETE /devices/11`, (c) => c.deleteDevice("11")],
  [`PATCH /devices/11/properties`, (c) => c.updateProperties("11", { interval: 5 })],
  [
    "POST /tasks",
    (c) => c.createConfigTasks({ type: "TSL", deviceIds: ["11"], config: { properties: { a: 1 } } }),
  ],
  ["POST /rps/profile", (c) => c.setRpsProfile({ sn: SN, profileUrl: "https://rps.example.com/p" })],
  [`DELETE /rps/${SN}`, (c) => c.deleteRpsProfile(SN)],
];

/** Writes whose answer carries nothing the caller needs, so that an empty body is their success. */
const EMPTY_IS_SUCCESS: ReadonlySet<string> = new Set([
  "DELETE /devices/11",
  "POST /rps/profile",
  `DELETE /rps/${SN}`,
]);

describe("a write answered 2xx with an unreadable body", () => {
  it("reads a write answered 2xx with a body that is not the envelope as outcome unknown", () => {
    for (const method of ["POST", "PUT", "PATCH", "DELETE"]) {
      const error = errorFromResponse({
        method,
        path: "/device/openapi/v1/devices",
        attempts: 1,
        baseUrl: "https://platform.example.com",
        status: 200,
        body: undefined,
      });
      expect(error, method).toBeInstanceOf(ResponseShapeError);
      expect(error.outcomeUnknown, method).toBe(true);
      expect(error.message).toBe(
        `${method} /device/openapi/v1/devices failed: HTTP 200 (the platform's answer could not be read ` +
          "(empty body): HTTP 200 says the request was handled, so the write may have been performed) (1 attempt)",
      );
      expect(error.message).not.toContain("does not look like");
    }
  });

  it("is outcome unknown, sent once, and says the answer could not be read", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...WRITES),
        fc.constantFrom(200, 201, 202),
        unreadableBody,
        async ([route, call], status, body) => {
          const [method, path] = route.split(" ") as [string, string];
          const key = `${method} ${PREFIX}${path}`;
          platform.on(key, () => ({ status, body }));
          const before = platform.count(key);
          const outcome = await call(platform.client()).then(
            () => undefined,
            (e: unknown) => e,
          );
          expect(platform.count(key) - before, key).toBe(1);
          // Some servers answer these with nothing: their schemas take an empty body as success.
          if (outcome === undefined && EMPTY_IS_SUCCESS.has(route) && body.trim() === "") return;
          expect(outcome, `${key} ${body}`).toBeInstanceOf(DevicePlatformError);
          const error = outcome as DevicePlatformError;
          expect(error.outcomeUnknown, key).toBe(true);
          expect(error.code).toBe("unexpected_response");
          expect(error.message).toMatch(/could not be read|unexpected response shape/);
          expect(error.message).not.toContain("does not look like");
        },
      ),
      { numRuns: 150 },
    );
  });

  it("Add a Device: looks the serial number up instead of adding it again", async () => {
    await fc.assert(
      fc.asyncProperty(unreadableBody, async (body) => {
        const add = `POST ${PREFIX}/devices`;
        const search = `POST ${PREFIX}/devices/search`;
        platform.on(add, () => ({ status: 200, body }));
        platform.on(search, () =>
          ok({ pageSize: 100, pageNumber: 1, total: 1, content: [{ deviceId: "11", sn: SN }] }),
        );
        const [adds, searches] = [platform.count(add), platform.count(search)];
        await expect(platform.client().addDevice({ snDevEUI: SN, name: "a" })).resolves.toMatchObject({
          deviceId: "11",
        });
        expect(platform.count(add) - adds).toBe(1);
        expect(platform.count(search) - searches).toBe(1);
      }),
      { numRuns: 60 },
    );
  });
});
