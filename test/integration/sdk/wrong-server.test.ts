/**
 * A base URL that points somewhere else: plain `node:http` servers on loopback (an HTML 404 page, a
 * web server's welcome page) and the emulator under a wrong path prefix. Each answer is a
 * ConfigurationError naming the base URL — never NotFoundError, which would make a refresh drop the
 * resource from state.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  ConfigurationError,
  DevicePlatformClient,
  NotFoundError,
  clearTokenCache,
  type DevicePlatformError,
} from "../../../sdk";
import { serialNumbers, startHarness, type Harness } from "./support/harness";

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

const ADVICE =
  "does not look like the device platform's base URL; check devplatform:baseUrl (DEVPLATFORM_BASE_URL) and devplatform:apiVersion";
const servers: Server[] = [];
const clients: DevicePlatformClient[] = [];
/** Requests each plain server saw, as "METHOD /path". */
const seen: string[] = [];

async function serve(handler: Handler): Promise<string> {
  const server = createServer((request, response) => {
    seen.push(`${request.method} ${request.url}`);
    request.resume();
    request.on("end", () => handler(request, response));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function clientOf(baseUrl: string): DevicePlatformClient {
  const client = new DevicePlatformClient({ baseUrl, clientId: "id", clientSecret: "a-client-secret" });
  clients.push(client);
  return client;
}

const notFoundPage: Handler = (_request, response) => {
  response
    .writeHead(404, { "content-type": "text/html" })
    .end("<html><body><h1>Not Found</h1></body></html>");
};

/** A token endpoint that works, and an HTML 404 for everything else: the API lives elsewhere. */
const tokensOnly: Handler = (request, response) => {
  if (request.url !== "/oauth/token") return notFoundPage(request, response);
  response
    .writeHead(200, { "content-type": "application/json" })
    .end(JSON.stringify({ access_token: "wrong-server-token", expires_in: 3600 }));
};

async function failure(promise: Promise<unknown>): Promise<DevicePlatformError> {
  return (await promise.then(
    () => expect.unreachable("the request should have failed"),
    (e: unknown) => e,
  )) as DevicePlatformError;
}

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(servers.splice(0).map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
  seen.length = 0;
  clearTokenCache();
});

describe("a plain HTTP server where the platform should be", () => {
  it("an HTML 404 from the token endpoint is a ConfigurationError naming the URL, sent once", async () => {
    const url = await serve(notFoundPage);
    const error = await failure(clientOf(url).getDevice("1"));
    expect(error).toBeInstanceOf(ConfigurationError);
    expect(error).not.toBeInstanceOf(NotFoundError);
    expect(error.message).toBe(
      `POST /oauth/token failed: HTTP 404 (not the platform's response: ` +
        `"<html><body><h1>Not Found</h1></body></html>"): ${url} ${ADVICE} ` +
        `(the client's baseUrl and apiVersion options) (1 attempt)`,
    );
    expect(seen).toEqual(["POST /oauth/token"]);
  });

  it("an HTML 404 for a device GET is a ConfigurationError naming the URL, not NotFoundError", async () => {
    const url = await serve(tokensOnly);
    const client = clientOf(url);
    for (const read of [() => client.getDevice("1"), () => client.deleteDevice("1")]) {
      const error = await failure(read());
      expect(error).toBeInstanceOf(ConfigurationError);
      expect(error).not.toBeInstanceOf(NotFoundError);
      expect(error.message).toMatch(
        /^(GET|DELETE) \/device\/openapi\/v1\/devices\/1 failed: HTTP 404 \(not the platform's response: "<html>/,
      );
      expect(error.message).toContain(`${url} ${ADVICE}`);
      expect(error.attempts).toBe(1);
    }
    expect(seen).toEqual([
      "POST /oauth/token",
      "GET /device/openapi/v1/devices/1",
      "DELETE /device/openapi/v1/devices/1",
    ]);
  });

  it("a web server's 200 welcome page is a ConfigurationError, not a malformed response", async () => {
    const url = await serve((_request, response) => {
      response.writeHead(200, { "content-type": "text/html" }).end("<!doctype html><title>Welcome</title>");
    });
    const error = await failure(clientOf(url).searchDevices());
    expect(error).toBeInstanceOf(ConfigurationError);
    expect(error.message).toMatch(
      /^POST \/oauth\/token failed: HTTP 200 \(not the platform's response: "<!doctype html><title>Welcome<\/title>"\)/,
    );
  });
});

describe("the emulator under a wrong base URL", () => {
  let harness: Harness;
  const nextSn = serialNumbers();

  beforeAll(async () => {
    harness = await startHarness();
  });
  afterAll(() => harness.stop());

  it("a path prefix the platform does not have: route_not_found is a ConfigurationError", async () => {
    const url = `${harness.emulator.url}/api`;
    const error = await failure(
      harness.newClient({ baseUrl: url }).addDevice({ snDevEUI: nextSn(), name: "x" }),
    );
    expect(error).toBeInstanceOf(ConfigurationError);
    expect(error.errCode).toBe("route_not_found");
    expect(error.message).toMatch(/^POST \/oauth\/token failed: HTTP 404 route_not_found: /);
    expect(error.message).toContain(`${url} ${ADVICE}`);
    expect((await harness.emulator.control.state()).devices).toHaveLength(0);
  });

  it("a device that is gone is NotFoundError saying so; an RPS record likewise", async () => {
    const { client, emulator } = harness;
    const { deviceId } = await client.addDevice({ snDevEUI: nextSn(), name: "soon gone" });
    await emulator.control.deleteDevice(deviceId);
    const device = await failure(client.getDevice(deviceId));
    expect(device).toBeInstanceOf(NotFoundError);
    expect(device).toMatchObject({ resource: "device", errCode: "device_not_found", status: 404 });
    const record = await failure(client.deleteRpsProfile(nextSn()));
    expect(record).toBeInstanceOf(NotFoundError);
    expect(record).toMatchObject({ resource: "rps_record", errCode: "rps_record_not_found", status: 404 });
  });
});
