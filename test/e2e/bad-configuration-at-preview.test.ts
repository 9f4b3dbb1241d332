/**
 * Bad provider configuration fails at `pulumi preview`, on the real CLI: the message names the
 * config key (or its environment fallback) and the rule, shows no stack trace, sends no request to
 * the platform, and never shows a credential put in the URL's user-info or query.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { EmulatorControl } from "../../emulator";
import { serialNumbers } from "./support/fleet-programs";
import { createProject } from "./support/e2e-project";
import type { CommandResult, PulumiProject } from "./support/pulumi-project";
import { e2e } from "./support/e2e-context";

const [sn] = serialNumbers(1, "24") as [string];

/** One resource of each kind; the engine stops at the first check that fails, so one per program. */
const KINDS: Record<string, string> = {
  Device: `new devplatform.Device("${sn}", { sn: "${sn}", name: "cfg" });`,
  DeviceFleet: `new devplatform.DeviceFleet("cfg-fleet", { devices: [{ sn: "${sn}", name: "cfg" }] });`,
  RpsProfile: `new devplatform.RpsProfile("${sn}", { sn: "${sn}", profileUrl: "https://rps.example.com/p" });`,
  DeviceConfig: `new devplatform.DeviceConfig("cfg-config", { deviceIds: "1735000000000000001", properties: { reportInterval: 900 } });`,
};

const program = (resource: string) => `import * as devplatform from "pulumi-devplatform";\n${resource}\n`;

describe("bad configuration at preview", () => {
  let control: EmulatorControl;
  let project: PulumiProject;
  let emulatorPort: string;

  beforeAll(async () => {
    const { emulatorUrl } = e2e();
    control = new EmulatorControl(emulatorUrl);
    emulatorPort = new URL(emulatorUrl).port;
    project = await createProject({ name: "bad-config", program: program(KINDS.Device ?? "") });
  });

  async function previewWith(config: Record<string, string>, env: Record<string, string> = {}) {
    for (const [key, value] of Object.entries(config)) await project.cli(["config", "set", key, value]);
    await control.resetCounters();
    const result = await project.preview({}, { env });
    expect((await control.counters()).total).toBe(0);
    return result;
  }

  function expectRefused(result: CommandResult, message: RegExp): void {
    expect(result.exitCode).not.toBe(0);
    expect(result.output).toMatch(message);
    expect(result.output).not.toMatch(/\n\s+at /); // no stack trace
    expect(result.output).not.toContain("s3cret");
    expect(result.output).not.toMatch(/TypeError/);
  }

  it.each([
    ["no scheme", "example.com", /devplatform:baseUrl must be an absolute URL with its scheme/],
    ["a non-http scheme", "ftp://platform.example.com", /devplatform:baseUrl must use https:\/\/, not ftp:/],
    [
      "plain http to a remote host",
      "http://platform.example.com",
      /devplatform:baseUrl must use https:\/\/ \(plain http:\/\/ is allowed only for loopback hosts\)/,
    ],
    [
      "user-info",
      "https://user:s3cret@127.0.0.1:1",
      /devplatform:baseUrl must not contain credentials .*got "https:\/\/\*\*\*@127\.0\.0\.1:1"/,
    ],
    [
      "a query",
      "https://platform.example.com/?access_token=s3cret",
      /devplatform:baseUrl must not contain a query/,
    ],
  ])("a Device preview with a base URL with %s fails naming the key", async (_what, url, message) => {
    project.setProgram(program(KINDS.Device ?? ""));
    expectRefused(await previewWith({ "devplatform:baseUrl": url }), message);
  });

  it.each(Object.keys(KINDS))(
    "a %s preview with user:password in the base URL fails naming the key, never the password",
    async (kind) => {
      project.setProgram(program(KINDS[kind] ?? ""));
      const url = `http://user:s3cret@127.0.0.1:${emulatorPort}`;
      expectRefused(
        await previewWith({ "devplatform:baseUrl": url }),
        /devplatform:baseUrl must not contain credentials/,
      );
    },
  );

  it("names the environment fallback when the base URL comes from DEVPLATFORM_BASE_URL", async () => {
    project.setProgram(program(KINDS.Device ?? ""));
    await project.cli(["config", "rm", "devplatform:baseUrl"]);
    const result = await previewWith({}, { DEVPLATFORM_BASE_URL: "example.com" });
    expectRefused(
      result,
      /DEVPLATFORM_BASE_URL \(the fallback of devplatform:baseUrl\) must be an absolute URL/,
    );
  });

  it.each([
    [{ "devplatform:apiVersion": "v2" }, /devplatform:apiVersion must be "v1" or "v1.0", got "v2"/],
    [{ "devplatform:maxRetries": "lots" }, /devplatform:maxRetries must be a whole number from 0 to 100/],
  ])("a bad %j fails at preview naming the key", async (config, message) => {
    project.setProgram(program(KINDS.Device ?? ""));
    const result = await previewWith({ "devplatform:baseUrl": e2e().emulatorUrl, ...config });
    for (const key of Object.keys(config)) await project.cli(["config", "rm", key]);
    expectRefused(result, message);
  });

  it("a missing client secret fails at preview naming the key", async () => {
    project.setProgram(program(KINDS.Device ?? ""));
    await project.cli(["config", "rm", "devplatform:clientSecret"]);
    const result = await previewWith({ "devplatform:baseUrl": e2e().emulatorUrl });
    expectRefused(result, /set devplatform:clientSecret \(or DEVPLATFORM_CLIENT_SECRET\)/);
  });
});
