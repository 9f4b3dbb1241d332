/**
 * A stack whose platform URL now answers 404 HTML to everything (the wrong server, a proxy's error
 * page): `refresh`, `up --refresh` and `destroy` each fail with a configuration error naming the
 * URL, and never drop or "delete" a resource: every resource in `pulumi stack export` is what it
 * was (see {@link resourcesIn} for why not every byte of the export). Through both front-ends.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serialNumbers } from "./support/fleet-programs";
import { createProject } from "./support/e2e-project";
import { FRONT_ENDS } from "./support/front-ends";
import { assertOk, type CommandResult, type PulumiProject } from "./support/pulumi-project";
import { RELIABILITY_PROGRAM, writeStackSpec } from "./support/reliability-programs";
import { startSwitchableProxy, type SwitchableProxy } from "./support/switchable-proxy";
import { e2e } from "./support/e2e-context";

/**
 * Every resource of an exported stack as the provider recorded it: type, name, id, inputs, outputs,
 * parent, dependencies. The engine rewrites a checkpoint's bookkeeping whenever it saves one — even
 * after a refresh in which every read failed: the manifest's time, a fresh nonce for every secret's
 * ciphertext, and for refreshed resources their source positions and per-property dependencies —
 * so the stack export's bytes cannot stay the same; what the provider is responsible for can.
 */
function resourcesIn(exportText: string): unknown[] {
  const { deployment } = JSON.parse(exportText) as { deployment: { resources: Record<string, unknown>[] } };
  const kept = ["urn", "type", "id", "custom", "inputs", "outputs", "parent", "dependencies", "provider"];
  return deployment.resources.map((r) => Object.fromEntries(kept.map((key) => [key, r[key]])));
}

describe.each(FRONT_ENDS)("a base URL that answers 404 HTML to everything (%s)", (front) => {
  let proxy: SwitchableProxy;
  let project: PulumiProject;
  let exported: string;

  beforeAll(async () => {
    proxy = await startSwitchableProxy(e2e().emulatorUrl);
    project = await createProject({
      name: `wrong-url-${front}`,
      program: RELIABILITY_PROGRAM,
      front,
      config: { "devplatform:baseUrl": proxy.url },
    });
    const devices = serialNumbers(5).map((sn) => ({ sn, name: `wrong-url-${sn.slice(-4)}` }));
    const rps = serialNumbers(2, "AC").map((sn) => ({ sn, profileUrl: `https://rps.example.com/${sn}` }));
    writeStackSpec(project.dir, { devices, rps, fleetProperties: { reportInterval: 900 } });
    assertOk(await project.up());
    exported = (await project.cli(["stack", "export", "--show-secrets"])).stdout;
    proxy.mode = "html-404";
  });

  afterAll(async () => {
    proxy.mode = "forward";
    assertOk(await project.destroy());
    await proxy.close();
  });

  function expectConfigurationError(result: CommandResult): void {
    expect(result.exitCode).not.toBe(0);
    expect(result.output).toContain(`${proxy.url} does not look like the device platform's base URL`);
    expect(result.output).toMatch(/check devplatform:baseUrl/);
    expect(result.output).not.toMatch(/\n\s+at .*\.js:\d+/); // no stack trace
    // The host logs each failure once, not its message twice on one line.
    expect(result.output).not.toMatch(/\(1 attempt\): read /);
  }

  async function expectStateUntouched(): Promise<void> {
    expect(resourcesIn((await project.cli(["stack", "export", "--show-secrets"])).stdout)).toEqual(
      resourcesIn(exported),
    );
  }

  it("refresh fails naming the URL and leaves the state as it was", async () => {
    expectConfigurationError(await project.refresh());
    await expectStateUntouched();
  });

  it("up --refresh fails naming the URL and leaves the state as it was", async () => {
    expectConfigurationError(await project.upWithRefresh());
    await expectStateUntouched();
  });

  it("destroy fails naming the URL and leaves the state as it was", async () => {
    expectConfigurationError(await project.destroy());
    await expectStateUntouched();
  });
});
