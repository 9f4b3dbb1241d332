/**
 * An `up` whose program declares no resource of this package any more (an emptied or broken
 * program): the engine then deletes every resource of the stack, and it tells a provider nothing
 * that sets this apart from `pulumi destroy` — no check runs, and a delete carries only the
 * resource's state. The guards are the engine's own resource options, which docs/guides/reliability.md recommends
 * for production fleets; this proves what each one does, through both front-ends.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { EmulatorControl } from "../../emulator";
import { createProject } from "./support/e2e-project";
import { serialNumbers } from "./support/fleet-programs";
import { writesOf } from "./support/platform-writes";
import { FRONT_ENDS } from "./support/front-ends";
import { assertOk, resourcesOfType } from "./support/pulumi-project";
import { e2e } from "./support/e2e-context";
const EMPTY_PROGRAM = "export {};\n";

function fleetProgram(name: string, serials: readonly string[], options: string): string {
  const devices = serials.map((sn, i) => ({ sn, name: `${name}-${i}` }));
  return [
    `import * as devplatform from "pulumi-devplatform";`,
    `new devplatform.DeviceFleet(${JSON.stringify(name)}, { devices: ${JSON.stringify(devices)}, maxRemovals: 0 }, ${options});`,
    "",
  ].join("\n");
}

describe.each(FRONT_ENDS)("an up of a program that no longer declares anything (%s)", (front) => {
  let control: EmulatorControl;

  beforeAll(() => {
    control = new EmulatorControl(e2e().emulatorUrl);
  });

  async function onPlatform(serials: readonly string[]) {
    return (await control.state()).devices.filter((d) => serials.includes(d.sn));
  }

  it("without a guard deletes the fleet's devices (maxRemovals cannot tell it from a destroy)", async () => {
    const serials = serialNumbers(3);
    const project = await createProject({
      name: `emptied-plain-${front}`,
      program: fleetProgram("emptied-plain", serials, "{}"),
      front,
    });
    assertOk(await project.up());
    project.setProgram(EMPTY_PROGRAM);
    // What a pull request's preview shows before anything happens: the fleet's delete.
    await control.resetCounters();
    const preview = assertOk(await project.preview());
    expect(preview.changes).toMatchObject({ delete: 1 });
    expect(preview.output).toMatch(/- .*DeviceFleet.*emptied-plain.*delete/);
    expect(writesOf((await control.counters()).byRoute)).toEqual({});
    assertOk(await project.up());
    expect(await onPlatform(serials)).toEqual([]);
  });

  it("with protect: true fails and deletes nothing", async () => {
    const serials = serialNumbers(3);
    const program = fleetProgram("emptied-protected", serials, "{ protect: true }");
    const project = await createProject({ name: `emptied-protected-${front}`, program, front });
    assertOk(await project.up());
    const ids = (await onPlatform(serials)).map((d) => d.deviceId).sort();
    await control.resetCounters();
    project.setProgram(EMPTY_PROGRAM);
    const preview = await project.preview();
    expect(preview.exitCode).not.toBe(0);
    expect(preview.output).toMatch(/protected/);
    const up = await project.up();
    expect(up.exitCode).not.toBe(0);
    expect(up.output).toMatch(/protected/);
    expect(writesOf((await control.counters()).byRoute)).toEqual({});
    expect((await onPlatform(serials)).map((d) => d.deviceId).sort()).toEqual(ids);
    expect(resourcesOfType(await project.exportStack(), project.token("DeviceFleet"))).toHaveLength(1);
    // Restoring the program finds nothing to do.
    project.setProgram(program);
    assertOk(await project.preview({ expectNoChanges: true }));
  });

  it("with retainOnDelete: true forgets the fleet and leaves its devices, which the restored program adopts", async () => {
    const serials = serialNumbers(3);
    const program = fleetProgram("emptied-retained", serials, "{ retainOnDelete: true }");
    const project = await createProject({ name: `emptied-retained-${front}`, program, front });
    assertOk(await project.up());
    const ids = (await onPlatform(serials)).map((d) => d.deviceId).sort();
    await control.resetCounters();
    project.setProgram(EMPTY_PROGRAM);
    assertOk(await project.up());
    expect(writesOf((await control.counters()).byRoute)).toEqual({});
    expect((await onPlatform(serials)).map((d) => d.deviceId).sort()).toEqual(ids);
    expect(resourcesOfType(await project.exportStack(), project.token("DeviceFleet"))).toEqual([]);

    project.setProgram(program);
    assertOk(await project.up());
    expect(writesOf((await control.counters()).byRoute)).toEqual({});
    expect((await onPlatform(serials)).map((d) => d.deviceId).sort()).toEqual(ids);
    assertOk(await project.preview({ expectNoChanges: true }));
  });
});
