/**
 * The plugin lifecycle each language's e2e file drives through the real CLI, with its expectations
 * written once: one Device, a DeviceFleet of two, one RpsProfile, a DeviceConfig of the Device and
 * `getDevice` of the Device, through create → `preview --expect-no-changes` → out-of-band change →
 * refresh → update → `pulumi import` → destroy, each step's platform requests counted. A language
 * contributes only how its program is written; the engine, the plugin and the platform must answer
 * the same in every language, so the request counts are the same table for all.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { EmulatorControl } from "../../../emulator";
import { importIdOf } from "./plugin-imports";
import {
  changeOutOfBand,
  LIFECYCLE_WRITES,
  lifecycleResources,
  platformView,
  RESOURCE_NAMES,
  StepCounter,
  TOKENS,
  type LifecycleResources,
} from "./plugin-lifecycle";
import { assertOk, type PulumiProject } from "./pulumi-project";
import { e2e } from "./e2e-context";

/** One language's program of the lifecycle. */
export interface LifecycleLanguage {
  /** The language as the table of docs/guides/reliability.md names it. */
  readonly language: string;
  /** The project's name: the project part of its URNs. */
  readonly project: string;
  /** A prefix for the resources' names on the platform, unique among the e2e files. */
  readonly prefix: string;
  /** Makes the project with its program written for `initial`. */
  create(initial: LifecycleResources): Promise<PulumiProject>;
  /** Points the program at `resources` (its spec file, or the YAML program itself). */
  write(project: PulumiProject, resources: LifecycleResources): void;
  /** The language's own checks of the first `up`'s stack outputs (e.g. which interpreter ran it). */
  checkOutputs?(project: PulumiProject, outputs: Record<string, unknown>): void;
}

/** What a language file may use after the lifecycle's steps (its own steps on the same stack). */
export interface LifecycleHandle {
  /** The project, once `beforeAll` made it. */
  project(): PulumiProject;
  /** The step counter, once `beforeAll` made it. */
  counter(): StepCounter;
}

/** The stack outputs every lifecycle program exports, under the same names in every language. */
export interface LifecycleOutputs {
  deviceId: string;
  fleetDeviceIds: Record<string, string>;
  rpsProfileUrl: string;
  configProperties: Record<string, unknown>;
  getDeviceName: string;
}

/** The stack's outputs. */
export async function stackOutputs(project: PulumiProject): Promise<Record<string, unknown>> {
  const result = await project.cli(["stack", "output", "--json", "--show-secrets"]);
  return JSON.parse(assertOk(result).stdout) as Record<string, unknown>;
}

/**
 * Registers the lifecycle's steps (call inside the file's `describe`), each a test of its own, in
 * order, on one project and one stack; prints the request table at the end.
 */
export function lifecycleSteps(language: LifecycleLanguage): LifecycleHandle {
  const { initial, updated } = lifecycleResources(language.prefix);
  let control: EmulatorControl;
  let project: PulumiProject | undefined;
  let counter: StepCounter | undefined;

  const theProject = (): PulumiProject => {
    if (!project) throw new Error(`the ${language.language} project was not made`);
    return project;
  };
  const theCounter = (): StepCounter => {
    if (!counter) throw new Error("no step counter yet");
    return counter;
  };
  const outputs = async () => (await stackOutputs(theProject())) as Partial<LifecycleOutputs>;
  const expectPlatform = (res: LifecycleResources) =>
    expect(platformView(control, res)).resolves.toEqual({
      deviceName: res.device.name,
      fleetNames: res.fleet.map((d) => d.name),
      rpsProfileUrl: res.rps.profileUrl,
      reportInterval: res.config.properties["reportInterval"],
    });

  beforeAll(async () => {
    control = new EmulatorControl(e2e().emulatorUrl);
    counter = new StepCounter(control);
    project = await language.create(initial);
  });

  afterAll(() => {
    if (counter) console.log(counter.table(`plugin, ${language.language}`));
  });

  it("creates the four resources and reads the device back through getDevice", async () => {
    const steps = theCounter();
    const up = assertOk(await steps.count("up (create)", () => theProject().up()));
    expect(up.changes).toEqual({ create: 5 }); // the stack and the four resources
    expect(steps.of("up (create)").writesByRoute).toEqual(LIFECYCLE_WRITES.create);
    expect(steps.of("up (create)").total).toBe(16); // with 1 token, 3 adoption searches, 4 reads (1 getDevice)
    await expectPlatform(initial);
    const out = await outputs();
    expect(out.deviceId).toMatch(/^\d+$/);
    expect(out.getDeviceName).toBe(initial.device.name);
    expect(Object.keys(out.fleetDeviceIds ?? {}).sort()).toEqual(initial.fleet.map((d) => d.sn).sort());
    expect(Object.values(out.fleetDeviceIds ?? {})).toEqual([
      expect.stringMatching(/^\d+$/),
      expect.stringMatching(/^\d+$/),
    ]);
    expect(out.rpsProfileUrl).toBe(initial.rps.profileUrl);
    expect(out.configProperties).toEqual(initial.config.properties);
    language.checkOutputs?.(theProject(), out);
  });

  it("previews no changes right after the up", async () => {
    const steps = theCounter();
    const preview = assertOk(
      await steps.count("preview --expect-no-changes", () => theProject().preview({ expectNoChanges: true })),
    );
    expect(preview.changes).toEqual({ same: 5 });
    expect(steps.of("preview --expect-no-changes").writes).toBe(0);
    expect(steps.of("preview --expect-no-changes").total).toBe(2); // the token and getDevice's read
  });

  it("finds each resource's out-of-band change on refresh", async () => {
    const steps = theCounter();
    const changed = await changeOutOfBand(control, e2e().emulatorUrl, initial);
    const refresh = assertOk(
      await steps.count("refresh (4 changed out of band)", () => theProject().refresh()),
    );
    expect(refresh.changes).toEqual({ update: 4, same: 1 });
    expect(steps.of("refresh (4 changed out of band)").writes).toBe(0);
    expect(steps.of("refresh (4 changed out of band)").total).toBe(6);
    // A refresh updates state, not the stack's outputs (those change with the next up).
    const state = await theProject().exportStack();
    const outputsOf = (token: string) => state.deployment.resources?.find((r) => r.type === token)?.outputs;
    expect(outputsOf(TOKENS.rps)?.["profileUrl"]).toBe(changed.rpsProfileUrl);
    expect(outputsOf(TOKENS.config)?.["properties"]).toEqual({ reportInterval: changed.reportInterval });
    expect(outputsOf(TOKENS.device)?.["name"]).toBe(changed.deviceName);
  });

  it("updates every resource in place to the new program", async () => {
    const steps = theCounter();
    language.write(theProject(), updated);
    const up = assertOk(await steps.count("up (update all four)", () => theProject().up()));
    expect(up.changes).toEqual({ update: 4, same: 1 });
    // The three devices: the Device renamed, one fleet device renamed, the other's drift undone.
    expect(steps.of("up (update all four)").writesByRoute).toEqual(LIFECYCLE_WRITES.update);
    expect(steps.of("up (update all four)").total).toBe(10);
    await expectPlatform(updated);
    expect((await outputs()).getDeviceName).toBe(updated.device.name);
    assertOk(await theProject().preview({ expectNoChanges: true }));
  });

  it("imports the four resources with one `pulumi import --file`, writing nothing, and then previews no changes", async () => {
    const steps = theCounter();
    const deviceId = String((await outputs()).deviceId);
    for (const name of RESOURCE_NAMES) {
      const urn = `urn:pulumi:dev::${language.project}::${TOKENS[name]}::${name}`;
      assertOk(await theProject().cli(["state", "delete", urn, "--yes"]));
    }
    const resources = RESOURCE_NAMES.map((name) => ({
      type: TOKENS[name],
      name,
      id: importIdOf(name, updated, deviceId),
    }));
    const imported = assertOk(
      await steps.count("pulumi import (all four)", () => theProject().importAll(resources)),
    );
    expect(imported.changes).toEqual({ import: 4, same: 1 });
    expect(steps.of("pulumi import (all four)").writes).toBe(0);
    // The token, then one read or search each: the Device and DeviceConfig by deviceId, the fleet
    // by one search of the application, the RPS record by one search of the listing.
    expect(steps.of("pulumi import (all four)").byRoute).toEqual({
      "POST /oauth/token": 1,
      "GET /devices/{deviceId}": 1,
      "GET /devices/{deviceId}/config": 1,
      "POST /devices/search": 1,
      "POST /rps/search": 1,
    });
    const preview = assertOk(
      await steps.count("preview after import", () => theProject().preview({ expectNoChanges: true })),
    );
    expect(preview.changes).toEqual({ same: 5 });
    expect(steps.of("preview after import").total).toBe(2);
    await expectPlatform(updated);
  });

  it("destroys the four resources on the platform once unprotected", async () => {
    const steps = theCounter();
    // `pulumi import` protects what it imports, as the CLI does for every provider.
    const state = await theProject().exportStack();
    const imported = (state.deployment.resources ?? []).filter((r) =>
      r.type.startsWith("devplatform:index:"),
    );
    expect(imported.map((r) => (r as { protect?: boolean }).protect)).toEqual([true, true, true, true]);
    assertOk(await theProject().cli(["state", "unprotect", "--all", "--yes"]));
    const destroy = assertOk(await steps.count("destroy", () => theProject().destroy()));
    expect(destroy.changes).toEqual({ delete: 5 });
    expect(steps.of("destroy").writesByRoute).toEqual({
      "DELETE /devices/{deviceId}": 3,
      "DELETE /rps/{sn}": 1,
    });
    expect(steps.of("destroy").total).toBe(8);
    expect(await platformView(control, updated)).toMatchObject({
      deviceName: undefined,
      fleetNames: [undefined, undefined],
      rpsProfileUrl: undefined,
    });
  });

  return { project: theProject, counter: theCounter };
}
