/** The transport against real loopback sockets: how undici's failures are classified. */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { HttpTransport, classifyTransportError } from "../../../sdk/transport";

let server: Server | undefined;

afterEach(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

/** A loopback HTTP server; resolves with its origin. */
async function serve(handler: Parameters<typeof createServer>[1]): Promise<string> {
  server = createServer(handler);
  await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server?.address() as AddressInfo).port}`;
}

function transport(origin: string, timeoutMs = 2000) {
  return new HttpTransport({ origin, basePath: "", timeoutMs, concurrency: 4 });
}

const get = { method: "GET", path: "/x", headers: {} } as const;

describe("HttpTransport over real sockets", () => {
  it("returns status, body, Retry-After and the request id header", async () => {
    const origin = await serve((_req, res) => {
      res.writeHead(429, { "retry-after": "2", "x-request-id": "r-h" }).end('{"status":"Failed"}');
    });
    const t = transport(origin);
    const result = await t.send(get);
    expect(result).toMatchObject({
      kind: "response",
      status: 429,
      retryAfter: "2",
      requestId: "r-h",
      text: '{"status":"Failed"}',
    });
    await t.close();
  });

  it("reports a connection the server destroys after reading the request as possibly performed", async () => {
    const origin = await serve((req) => req.socket.destroy());
    const t = transport(origin);
    const result = await t.send(get);
    expect(result.kind).toBe("failure");
    if (result.kind === "failure")
      expect(result.failure).toMatchObject({ performed: "unknown", transient: true });
    await t.close();
  });

  it("times out a response that does not come, as possibly performed", async () => {
    const origin = await serve(() => undefined);
    const t = transport(origin, 100);
    const result = await t.send(get);
    expect(result.kind === "failure" && result.failure.reason).toMatch(/timed out .*UND_ERR_HEADERS_TIMEOUT/);
    if (result.kind === "failure") expect(result.failure.performed).toBe("unknown");
    await t.close();
  });

  it("reports a refused connection as not performed", async () => {
    const origin = await serve(() => undefined);
    await new Promise<void>((resolve) => server?.close(() => resolve()));
    server = undefined;
    const t = transport(origin);
    const result = await t.send(get);
    expect(result.kind === "failure" && result.failure).toMatchObject({ performed: "no", transient: true });
    await t.close();
  });

  it("fails for good after close()", async () => {
    const origin = await serve((_req, res) => res.end("{}"));
    const t = transport(origin);
    await t.close();
    await t.close(); // idempotent
    const result = await t.send(get);
    expect(result.kind === "failure" && result.failure).toMatchObject({ transient: false });
  });
});

describe("classifyTransportError", () => {
  it("looks into AggregateError (one error per address tried)", () => {
    const error = new AggregateError(
      [Object.assign(new Error("refused"), { code: "ECONNREFUSED" })],
      "connect failed",
    );
    expect(classifyTransportError(error)).toMatchObject({ performed: "no", transient: true });
  });

  it("treats unknown errors as final", () => {
    expect(classifyTransportError(new TypeError("bad header"))).toMatchObject({
      transient: false,
      reason: "TypeError: bad header",
    });
  });
});
