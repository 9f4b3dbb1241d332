/**
 * A client secret holding `&` never shows, whole or in part, when the token endpoint echoes the
 * request back — through both front-ends, in `pulumi up`'s output and in the engine's event log.
 * The platform here is a stand-in (a loopback server of this test, not the emulator): its token
 * endpoint answers every grant with HTTP 500 echoing the decoded form body, as a misbehaving
 * gateway might: as plain text, padded so that the secret straddles the 120 characters the client
 * quotes of a body that is not the envelope (before, that cut came first, and the output and event
 * log showed the secret's first 10 characters). Echoes in the envelope's errMsg, and in every other
 * form, are the properties of test/unit/sdk/secret-echo-properties.test.ts.
 */
import { readdirSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createProject } from "./support/e2e-project";
import { serialNumbers } from "./support/fleet-programs";
import { FRONT_ENDS } from "./support/front-ends";
import { createPluginProject } from "./support/plugin-programs";

const SECRET = "Xy7&k9Qm2Lp8Vb3Nc6Rt";

/**
 * The longest run of the secret's characters that `text` shows, when 4 or more (shorter runs, "c"
 * or "&k", occur in any text).
 */
function longestShown(text: string): number {
  let longest = 3;
  for (let start = 0; start < SECRET.length; start += 1) {
    for (let end = SECRET.length; end > start + longest; end -= 1) {
      if (text.includes(SECRET.slice(start, end))) longest = end - start;
    }
  }
  return longest > 3 ? longest : 0;
}

/** Where the client cuts the quote of a body that is not the envelope. */
const QUOTED_CHARACTERS = 120;

/**
 * Stand-in platform: the token endpoint answers 500 echoing the decoded request as plain text, the
 * secret across the client's cut; nothing else exists.
 */
function echoingTokenEndpoint(): Promise<{ server: Server; url: string; grants: () => number }> {
  let grants = 0;
  const server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
    request.on("end", () => {
      if (request.method === "POST" && request.url?.endsWith("/oauth/token")) {
        grants += 1;
        const decoded = decodeURIComponent(body.replace(/\+/g, " "));
        const echo = `cannot parse ${decoded}`;
        const pad = "x".repeat(Math.max(0, QUOTED_CHARACTERS - SECRET.length / 2 - echo.indexOf(SECRET) - 1));
        response.writeHead(500, { "content-type": "text/plain" });
        response.end(`${pad} ${echo}`);
        return;
      }
      response.writeHead(404, { "content-type": "application/json" });
      response.end(JSON.stringify({ status: "Failed", errCode: "not_found", errMsg: "no such route" }));
    });
  });
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      resolve({ server, url: `http://127.0.0.1:${port}`, grants: () => grants });
    });
  });
}

describe.each(FRONT_ENDS)("a client secret holding & echoed by the token endpoint (%s)", (front) => {
  let standIn: Awaited<ReturnType<typeof echoingTokenEndpoint>>;

  beforeAll(async () => {
    standIn = await echoingTokenEndpoint();
  });
  afterAll(() => new Promise<void>((resolve) => standIn.server.close(() => resolve())));

  it("shows none of its characters in the output or the event log", async () => {
    const [sn] = serialNumbers(1);
    const program = `import { Device } from "pulumi-devplatform";\nnew Device("sensor", { sn: ${JSON.stringify(sn)}, name: "s" });\n`;
    const options = {
      name: `secret-echo-${front}`,
      program,
      front,
      // One attempt: the echo is the same at every retry, and retries would only add time.
      config: { "devplatform:baseUrl": standIn.url, "devplatform:maxRetries": "0" },
      secrets: { "devplatform:clientSecret": SECRET },
    };
    const project = await (front === "plugin" ? createPluginProject(options) : createProject(options));
    const up = await project.up();
    expect(up.exitCode).not.toBe(0);
    expect(standIn.grants()).toBeGreaterThan(0);
    // The echo reached the output, with the secret replaced.
    expect(up.output).toContain("cannot parse grant_type=client_credentials");
    const events = readdirSync(project.dir)
      .filter((name) => name.startsWith(".events-"))
      .map((name) => readFileSync(path.join(project.dir, name), "utf8"))
      .join("\n");
    expect(events).toContain("cannot parse grant_type=client_credentials");
    expect({ output: longestShown(up.output), events: longestShown(events) }).toEqual({
      output: 0,
      events: 0,
    });
  });
});
