/**
 * The provider plugin's own configuration on the real CLI: a bad value fails the preview at
 * CheckConfig naming its key, before any request and without a stack trace; two explicit provider
 * instances in one program manage two applications (two emulators, each with its own client); and
 * the state holds neither client secret in plain text nor any token.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EmulatorControl, startEmulator } from "../../emulator";
import { serialNumbers } from "./support/fleet-programs";
import { createPluginProject, pluginProgram } from "./support/plugin-programs";
import { assertOk, E2E_CREDENTIALS, resourcesOfType } from "./support/pulumi-project";
import { e2e } from "./support/e2e-context";

const DEVICE = "devplatform:index:Device";
const SECOND_APP = { clientId: "second-app", clientSecret: "second-app-s3cret" };

describe("the plugin's configuration", () => {
  let control: EmulatorControl;

  beforeAll(() => {
    control = new EmulatorControl(e2e().emulatorUrl);
  });

  it("fails a preview on a bad setting at CheckConfig, naming the key, with no request", async () => {
    const [sn] = serialNumbers(1);
    const project = await createPluginProject({
      name: "plugin-bad-config",
      program: pluginProgram([{ kind: "Device", name: "sensor", props: { sn, name: "never" } }]),
      config: { "devplatform:apiVersion": "v2" },
    });
    await control.resetCounters();
    const preview = await project.preview();
    expect(preview.exitCode).not.toBe(0);
    expect(preview.output).toContain('devplatform:apiVersion must be "v1" or "v1.0", got "v2"');
    expect(preview.output).not.toMatch(/\n\s+at /);
    expect(preview.output).not.toContain(E2E_CREDENTIALS.clientSecret);
    expect((await control.counters()).total).toBe(0);
  });

  describe("two explicit providers, two applications", () => {
    let second: Awaited<ReturnType<typeof startEmulator>>;
    let secondControl: EmulatorControl;

    beforeAll(async () => {
      second = await startEmulator({ control: true, ...SECOND_APP });
      secondControl = new EmulatorControl(second.url);
    });
    afterAll(async () => {
      await second.stop();
    });

    it("manages a device in each application, and no secret or token reaches the state", async () => {
      const [snA, snB] = serialNumbers(2) as [string, string];
      const providers = {
        // The first provider's secret comes from stack config as a secret; the second one's is a
        // plain string in the program, which the plugin still records only encrypted.
        appA: `{ baseUrl: ${JSON.stringify(e2e().emulatorUrl)}, clientId: ${JSON.stringify(E2E_CREDENTIALS.clientId)}, clientSecret: new pulumi.Config().requireSecret("secretA") }`,
        appB: `{ baseUrl: ${JSON.stringify(second.url)}, clientId: ${JSON.stringify(SECOND_APP.clientId)}, clientSecret: ${JSON.stringify(SECOND_APP.clientSecret)}, maxRetries: 3 }`,
      };
      const program = (suffix: string) =>
        pluginProgram(
          [
            {
              kind: "Device",
              name: "in-a",
              props: { sn: snA, name: `a-${suffix}` },
              opts: "{ provider: appA }",
            },
            {
              kind: "Device",
              name: "in-b",
              props: { sn: snB, name: `b-${suffix}` },
              opts: "{ provider: appB }",
            },
          ],
          providers,
        );
      // No default configuration at all: only the explicit providers' own inputs can work.
      const project = await createPluginProject({
        name: "plugin-two",
        program: program("one"),
        config: { "devplatform:baseUrl": "https://unused.example.com", "devplatform:clientId": "unused" },
        secrets: { "plugin-two:secretA": E2E_CREDENTIALS.clientSecret, "devplatform:clientSecret": "unused" },
      });
      await control.resetCounters();
      await secondControl.resetCounters();
      assertOk(await project.up());
      const expectedCreate = {
        "POST /oauth/token": 1,
        "POST /devices/search": 1,
        "POST /devices": 1,
        "GET /devices/{deviceId}": 1,
      };
      expect((await control.counters()).byRoute).toEqual(expectedCreate);
      expect((await secondControl.counters()).byRoute).toEqual(expectedCreate);
      const inA = (await control.state()).devices;
      const inB = (await secondControl.state()).devices;
      expect(inA.find((d) => d.sn === snA)?.name).toBe("a-one");
      expect(inA.find((d) => d.sn === snB)).toBeUndefined();
      expect(inB.find((d) => d.sn === snB)?.name).toBe("b-one");
      expect(inB.find((d) => d.sn === snA)).toBeUndefined();

      const stack = await project.exportStack();
      const ids = Object.fromEntries(
        resourcesOfType(stack, DEVICE).map((r) => [r.urn.split("::").at(-1), r.id]),
      );
      expect(ids).toEqual({
        "in-a": inA.find((d) => d.sn === snA)?.deviceId,
        "in-b": inB.find((d) => d.sn === snB)?.deviceId,
      });
      const stateText = project.stateFileText();
      const exported = JSON.stringify(stack);
      const tokens = [...(await control.issuedTokens()), ...(await secondControl.issuedTokens())];
      expect(tokens.length).toBeGreaterThanOrEqual(2);
      for (const text of [stateText, exported]) {
        expect(text).not.toContain(E2E_CREDENTIALS.clientSecret);
        expect(text).not.toContain(SECOND_APP.clientSecret);
        for (const token of tokens) expect(text).not.toContain(token);
      }

      assertOk(await project.preview({ expectNoChanges: true }));
      project.setProgram(program("two"));
      assertOk(await project.up());
      expect((await control.state()).devices.find((d) => d.sn === snA)?.name).toBe("a-two");
      expect((await secondControl.state()).devices.find((d) => d.sn === snB)?.name).toBe("b-two");
      assertOk(await project.destroy());
      expect((await control.state()).devices.find((d) => d.sn === snA)).toBeUndefined();
      expect((await secondControl.state()).devices.find((d) => d.sn === snB)).toBeUndefined();
    });
  });
});
