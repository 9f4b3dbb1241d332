/**
 * `maxRemovals` holds in every arrangement of provider instances: whether the program still runs is
 * a fact of the deployment, not of one application. With one explicit plugin provider per region on
 * two applications (two emulators, each its own client), an `up` whose program drops the `eu-site`
 * fleet (3 devices, `maxRemovals: 1`) while still declaring `us-site` fails at `maxRemovals`, with
 * no write to the EU application — as the same program on one application does. The EU provider's
 * process checks nothing in that `up` (its only resource is gone from the program); the US one's
 * checks say the program ran. Request counts from the emulators' counters.
 *
 * The stack's removal budget is one per deployment too: the same two providers, each given the
 * budget 3 (`maxRemovals` of an explicit provider), each fleet removing 2 — 4 in all — fail the
 * preview with no write. Kept per application before, each provider counted its own 2, and both passed.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EmulatorControl, startEmulator } from "../../emulator";
import { e2e } from "./support/e2e-context";
import { serialNumbers } from "./support/fleet-programs";
import { createPluginProject, pluginProgram, type PluginResource } from "./support/plugin-programs";
import { writesOf } from "./support/platform-writes";
import { assertOk, E2E_CREDENTIALS } from "./support/pulumi-project";

/** The second application, on an emulator of its own. */
const US_APP = { clientId: "us-app", clientSecret: "us-app-s3cret" };

describe("a fleet dropped by a program whose other provider serves another application", () => {
  let eu: EmulatorControl;
  let usEmulator: Awaited<ReturnType<typeof startEmulator>>;
  let us: EmulatorControl;

  beforeAll(async () => {
    eu = new EmulatorControl(e2e().emulatorUrl);
    usEmulator = await startEmulator({ control: true, ...US_APP });
    us = new EmulatorControl(usEmulator.url);
  });
  afterAll(async () => {
    await usEmulator.stop();
  });

  it("fails at maxRemovals with no write to its application (plugin, two explicit providers)", async () => {
    const euSerials = serialNumbers(3, "E1");
    const usSerials = serialNumbers(2, "A1");
    const providers = {
      eu: `{ baseUrl: ${JSON.stringify(e2e().emulatorUrl)}, clientId: ${JSON.stringify(E2E_CREDENTIALS.clientId)}, clientSecret: ${JSON.stringify(E2E_CREDENTIALS.clientSecret)} }`,
      us: `{ baseUrl: ${JSON.stringify(usEmulator.url)}, clientId: ${JSON.stringify(US_APP.clientId)}, clientSecret: ${JSON.stringify(US_APP.clientSecret)} }`,
    };
    const fleet = (name: string, serials: string[], provider: string): PluginResource => ({
      kind: "DeviceFleet",
      name,
      props: { devices: serials.map((sn, i) => ({ sn, name: `${name}-${i}` })), maxRemovals: 1 },
      opts: `{ provider: ${provider} }`,
    });
    const both = pluginProgram(
      [fleet("eu-site", euSerials, "eu"), fleet("us-site", usSerials, "us")],
      providers,
    );
    const usOnly = pluginProgram([fleet("us-site", usSerials, "us")], providers);
    const project = await createPluginProject({ name: "max-removals-two-apps", program: both });
    assertOk(await project.up());
    const euDevices = async () => (await eu.state()).devices.filter((d) => euSerials.includes(d.sn)).length;
    expect(await euDevices()).toBe(3);

    project.setProgram(usOnly);
    await eu.resetCounters();
    await us.resetCounters();
    const dropped = await project.up();
    expect(dropped.exitCode).not.toBe(0);
    expect(dropped.output).toContain("more than maxRemovals 1; nothing was deleted");
    expect(writesOf((await eu.counters()).byRoute)).toEqual({});
    expect(writesOf((await us.counters()).byRoute)).toEqual({});
    expect(await euDevices()).toBe(3);

    // One budget across both applications: 2 + 2 removed under a budget of 3 each provider holds.
    const budgeted = Object.fromEntries(
      Object.entries(providers).map(([name, props]) => [name, props.replace(/ }$/, ", maxRemovals: 3 }")]),
    );
    const removing = (name: string, serials: string[], keep: number, provider: string): PluginResource => ({
      ...fleet(name, serials.slice(0, keep), provider),
      props: {
        devices: serials.slice(0, keep).map((sn, i) => ({ sn, name: `${name}-${i}` })),
        maxRemovals: 2,
      },
    });
    const usMore = serialNumbers(2, "A2");
    project.setProgram(
      pluginProgram(
        [fleet("eu-site", euSerials, "eu"), fleet("us-site", [...usSerials, ...usMore], "us")],
        budgeted,
      ),
    );
    assertOk(await project.up());
    project.setProgram(
      pluginProgram(
        [removing("eu-site", euSerials, 1, "eu"), removing("us-site", [...usSerials, ...usMore], 2, "us")],
        budgeted,
      ),
    );
    await eu.resetCounters();
    await us.resetCounters();
    const overBudget = await project.preview();
    expect(overBudget.exitCode, overBudget.output).not.toBe(0);
    expect(overBudget.output).toContain(
      "this deployment would remove 4 devices, more than the stack's removal budget devplatform:maxRemovals 3",
    );
    expect(writesOf((await eu.counters()).byRoute)).toEqual({});
    expect(writesOf((await us.counters()).byRoute)).toEqual({});
  });
});
