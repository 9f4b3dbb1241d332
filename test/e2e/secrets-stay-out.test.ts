/**
 * The client secret and every token the platform issued appear nowhere in the state file, the
 * CLI's output or the serialized provider — also when authentication fails.
 */
import { describe, expect, it } from "vitest";
import { EmulatorControl } from "../../emulator";
import { createProject } from "./support/e2e-project";
import { deviceSpecs, fleetProgram, serialNumbers } from "./support/fleet-programs";
import { assertOk, E2E_CREDENTIALS, resourcesOfType } from "./support/pulumi-project";
import { e2e } from "./support/e2e-context";

describe("secrets", () => {
  it("never reach state, output or the serialized provider", async () => {
    const control = new EmulatorControl(e2e().emulatorUrl);
    const rps = serialNumbers(1, "AC").map((sn) => ({ sn, profileUrl: `https://rps.example.com/${sn}` }));
    const project = await createProject({ name: "secrets", program: fleetProgram(deviceSpecs(3), rps) });
    const outputs: string[] = [];
    const keep = <T extends { output: string }>(result: T) => (outputs.push(result.output), result);

    keep(assertOk(await project.up()));
    keep(assertOk(await project.preview({ expectNoChanges: true, diff: true })));
    keep(assertOk(await project.refresh()));
    keep(assertOk(await project.cli(["stack", "output", "--json", "--show-secrets"])));
    const stateText = project.stateFileText();
    const provider = resourcesOfType(
      await project.exportStack(),
      "pulumi-nodejs:dynamic/devplatform:Device",
    )[0]?.outputs?.__provider;

    // A wrong secret: the failure names the problem, not the secret.
    const wrongSecret = "wrong-secret-3f9c1e";
    assertOk(await project.cli(["config", "set", "--secret", "devplatform:clientSecret", wrongSecret]));
    project.setProgram(fleetProgram(deviceSpecs(1), []));
    const failed = keep(await project.up());
    expect(failed.exitCode).not.toBe(0);
    expect(failed.output).toMatch(/HTTP 401 authentication_failed/);
    keep(
      assertOk(
        await project.cli([
          "config",
          "set",
          "--secret",
          "devplatform:clientSecret",
          E2E_CREDENTIALS.clientSecret,
        ]),
      ),
    );
    // `destroy` runs no program: the engine configures the provider from the config it recorded in
    // state (encrypted) at the last `up`, so the corrected secret is recorded by an `up` first.
    keep(assertOk(await project.up()));
    keep(assertOk(await project.destroy()));

    // The engine keeps stack config as the default provider's inputs: secrets only as ciphertext.
    expect(stateText).toContain('"devplatform:clientSecret"');
    expect(stateText).toContain("ciphertext");
    const secrets = [E2E_CREDENTIALS.clientSecret, wrongSecret, ...(await control.issuedTokens())];
    expect(secrets.length).toBeGreaterThan(3);
    const places = {
      "state file": stateText,
      "serialized provider": String(provider),
      "CLI output": outputs.join("\n"),
    };
    for (const [place, text] of Object.entries(places)) {
      for (const secret of secrets) expect(text.includes(secret), `${place} contains a secret`).toBe(false);
    }
  });
});
