/**
 * No failure strands a stack, for every resource kind, on the real Pulumi CLI: after an `up` that
 * failed part-way, `refresh`, `up --refresh` and `destroy` all work, and the next `up` finishes what
 * is left once the obstacle is gone.
 *
 * The engine records a partial failure's properties as the resource's outputs; the dynamic provider
 * host needs the serialized provider among them to load the resource again. Without it, every later
 * command on the stack failed with a gRPC stack trace. Through both front-ends, for creates and
 * updates.
 */
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { EmulatorControl } from "../../emulator";
import { DevicePlatformClient } from "../../sdk";
import { deviceWithConfigProgram } from "./support/config-programs";
import { createProject } from "./support/e2e-project";
import { serialNumbers } from "./support/fleet-programs";
import { FRONT_ENDS } from "./support/front-ends";
import {
  assertOk,
  E2E_CREDENTIALS,
  resourcesOfType,
  type CommandResult,
  type PulumiProject,
} from "./support/pulumi-project";
import { e2e } from "./support/e2e-context";

/** A command failed as the user should see it: exit 1, the platform's words, no stack trace. */
function expectCleanFailure(result: CommandResult, words: RegExp): void {
  expect(result.exitCode, result.output).not.toBe(0);
  expect(result.output).toMatch(words);
  expect(result.output).not.toMatch(/\n\s+at /);
  expect(result.output).not.toMatch(/grpc|TypeError|Cannot read properties/i);
}

/** The commands that must keep working on a stack whose last `up` failed part-way. */
async function expectNotStranded(project: PulumiProject): Promise<void> {
  assertOk(await project.refresh());
  const stack = await project.exportStack();
  for (const resource of stack.deployment.resources ?? []) {
    if (resource.type.startsWith("pulumi-nodejs:dynamic/"))
      expect(resource.outputs?.__provider).toBeTypeOf("string");
  }
}

describe.each(FRONT_ENDS)("a failed up never strands the stack (%s)", (front) => {
  let control: EmulatorControl;
  let client: DevicePlatformClient;

  beforeAll(() => {
    const { emulatorUrl } = e2e();
    control = new EmulatorControl(emulatorUrl);
    client = new DevicePlatformClient({ baseUrl: emulatorUrl, ...E2E_CREDENTIALS, maxRetries: 2 });
  });

  afterEach(async () => {
    await control.clearFaults();
  });

  it("DeviceFleet: one device held by an RPS record", async () => {
    const serials = serialNumbers(3);
    const blocked = serials[2] as string;
    await control.seed({ rpsRecords: [{ sn: blocked, profileUrl: `https://rps.example.com/${blocked}` }] });
    const devices = serials.map((sn, i) => ({ sn, name: `partial-fleet-${i}` }));
    const project = await createProject({
      name: `strand-fleet-${front}`,
      front,
      program: [
        `import * as devplatform from "pulumi-devplatform";`,
        `new devplatform.DeviceFleet("strand-fleet", { devices: ${JSON.stringify(devices)} });`,
        "",
      ].join("\n"),
    });

    expectCleanFailure(await project.up(), /failed for 1 of 3 device\(s\)[\s\S]*rps_record_exists/);
    const [partial] = resourcesOfType(await project.exportStack(), project.token("DeviceFleet"));
    expect(Object.keys((partial?.outputs?.deviceIds ?? {}) as object)).toHaveLength(2);

    await expectNotStranded(project);
    // The obstacle is still there: up --refresh fails the same clean way, and records the same.
    expectCleanFailure(await project.upWithRefresh(), /rps_record_exists/);
    await client.deleteRpsProfile(blocked);
    assertOk(await project.upWithRefresh());
    const [fleet] = resourcesOfType(await project.exportStack(), project.token("DeviceFleet"));
    expect(Object.keys((fleet?.outputs?.deviceIds ?? {}) as object).sort()).toEqual([...serials].sort());
    assertOk(await project.preview({ expectNoChanges: true }));
    assertOk(await project.destroy());
    const left = (await control.state()).devices.filter((d) => serials.includes(d.sn));
    expect(left).toEqual([]);
  });

  it("DeviceFleet: destroy right after a partial failure deletes what was added", async () => {
    const serials = serialNumbers(2);
    const blocked = serials[1] as string;
    await control.seed({ rpsRecords: [{ sn: blocked, profileUrl: `https://rps.example.com/${blocked}` }] });
    const devices = serials.map((sn, i) => ({ sn, name: `partial-destroy-${i}` }));
    const project = await createProject({
      name: `strand-destroy-${front}`,
      front,
      program: [
        `import * as devplatform from "pulumi-devplatform";`,
        `new devplatform.DeviceFleet("strand-destroy", { devices: ${JSON.stringify(devices)} });`,
        "",
      ].join("\n"),
    });
    expectCleanFailure(await project.up(), /rps_record_exists/);
    assertOk(await project.destroy());
    expect((await control.state()).devices.filter((d) => serials.includes(d.sn))).toEqual([]);
    expect(resourcesOfType(await project.exportStack(), project.token("DeviceFleet"))).toEqual([]);
    await client.deleteRpsProfile(blocked);
  });

  it("DeviceConfig: a PATCH the platform applied in part", async () => {
    const sn = serialNumbers(1)[0] as string;
    const properties = { reportInterval: 1500, ledEnabled: false };
    const project = await createProject({
      name: `strand-config-${front}`,
      front,
      program: deviceWithConfigProgram({ sn, name: "partial-config" }, { properties }),
    });
    await control.setFaults({ kinds: [], dropProperties: ["ledEnabled"] });
    expectCleanFailure(await project.up(), /not applied: device \d+: ledEnabled/);

    await expectNotStranded(project);
    expectCleanFailure(await project.upWithRefresh(), /not applied: device \d+: ledEnabled/);
    await control.clearFaults();
    assertOk(await project.upWithRefresh());
    const [config] = resourcesOfType(await project.exportStack(), project.token("DeviceConfig"));
    expect(config?.outputs?.properties).toEqual(properties);
    assertOk(await project.preview({ expectNoChanges: true }));
    assertOk(await project.destroy());
    expect((await control.state()).devices.filter((d) => d.sn === sn)).toEqual([]);
  });

  it("DeviceConfig: destroy right after a partial failure", async () => {
    const sn = serialNumbers(1)[0] as string;
    const project = await createProject({
      name: `strand-config-destroy-${front}`,
      front,
      program: deviceWithConfigProgram(
        { sn, name: "partial-config-destroy" },
        { properties: { reportInterval: 1600, ledEnabled: false } },
      ),
    });
    await control.setFaults({ kinds: [], dropProperties: ["ledEnabled"] });
    expectCleanFailure(await project.up(), /not applied/);
    await control.clearFaults();
    assertOk(await project.destroy());
    expect(resourcesOfType(await project.exportStack(), project.token("DeviceConfig"))).toEqual([]);
  });

  it("Device: added, but its TSL version could not be set", async () => {
    const sn = serialNumbers(1)[0] as string;
    const project = await createProject({
      name: `strand-device-${front}`,
      front,
      program: [
        `import * as devplatform from "pulumi-devplatform";`,
        `new devplatform.Device(${JSON.stringify(sn)}, { sn: ${JSON.stringify(sn)}, name: "partial-device", tslVersion: "1.1.0" });`,
        "",
      ].join("\n"),
      config: { "devplatform:maxRetries": "0", "devplatform:rateLimitWait": "0" },
    });
    await control.setFaults({ kinds: ["429"], methods: ["PUT"], pathIncludes: "/devices" });
    expectCleanFailure(await project.up(), /recorded in the stack/);
    const [partial] = resourcesOfType(await project.exportStack(), project.token("Device"));
    expect(partial?.id).toMatch(/^\d+$/);

    await expectNotStranded(project);
    await control.clearFaults();
    assertOk(await project.upWithRefresh());
    const [device] = resourcesOfType(await project.exportStack(), project.token("Device"));
    expect(device?.id).toBe(partial?.id);
    expect((await control.state()).devices.filter((d) => d.sn === sn)).toHaveLength(1);
    assertOk(await project.destroy());
    expect((await control.state()).devices.filter((d) => d.sn === sn)).toEqual([]);
  });

  it("RpsProfile: a refused record leaves nothing behind that later commands trip on", async () => {
    const [sn] = serialNumbers(1, "AC") as [string];
    const seeded = await control.seed({ devices: [{ sn, name: "already-on-platform" }] });
    const project = await createProject({
      name: `strand-rps-${front}`,
      front,
      program: [
        `import * as devplatform from "pulumi-devplatform";`,
        `new devplatform.RpsProfile(${JSON.stringify(sn)}, { sn: ${JSON.stringify(sn)}, profileUrl: "https://rps.example.com/p" });`,
        "",
      ].join("\n"),
    });
    expectCleanFailure(await project.up(), /already on the platform/);
    await expectNotStranded(project);
    expect(resourcesOfType(await project.exportStack(), project.token("RpsProfile"))).toEqual([]);
    await client.deleteDevice(seeded.devices[0]?.deviceId as string);
    assertOk(await project.upWithRefresh());
    assertOk(await project.preview({ expectNoChanges: true }));
    assertOk(await project.destroy());
    expect((await control.state()).rpsRecords.filter((r) => r.sn === sn)).toEqual([]);
  });
  it("DeviceFleet: an update whose added device is held by an RPS record", async () => {
    const serials = serialNumbers(3);
    const blocked = serials[2] as string;
    const program = (count: number) =>
      [
        `import * as devplatform from "pulumi-devplatform";`,
        `new devplatform.DeviceFleet("strand-update", { devices: ${JSON.stringify(
          serials.slice(0, count).map((sn, i) => ({ sn, name: `partial-update-${i}` })),
        )} });`,
        "",
      ].join("\n");
    const project = await createProject({ name: `strand-update-${front}`, front, program: program(2) });
    assertOk(await project.up());
    await control.seed({ rpsRecords: [{ sn: blocked, profileUrl: `https://rps.example.com/${blocked}` }] });
    project.setProgram(program(3));
    expectCleanFailure(await project.up(), /failed for 1 of 1 device\(s\)[\s\S]*rps_record_exists/);
    const [partial] = resourcesOfType(await project.exportStack(), project.token("DeviceFleet"));
    expect(Object.keys((partial?.outputs?.deviceIds ?? {}) as object).sort()).toEqual(
      serials.slice(0, 2).sort(),
    );

    await expectNotStranded(project);
    expectCleanFailure(await project.upWithRefresh(), /rps_record_exists/);
    await client.deleteRpsProfile(blocked);
    assertOk(await project.upWithRefresh());
    const [fleet] = resourcesOfType(await project.exportStack(), project.token("DeviceFleet"));
    expect(Object.keys((fleet?.outputs?.deviceIds ?? {}) as object).sort()).toEqual([...serials].sort());
    assertOk(await project.preview({ expectNoChanges: true }));
    assertOk(await project.destroy());
    expect((await control.state()).devices.filter((d) => serials.includes(d.sn))).toEqual([]);
  });

  it("Device: an update whose PUT is refused", async () => {
    const sn = serialNumbers(1)[0] as string;
    const program = (name: string) =>
      [
        `import * as devplatform from "pulumi-devplatform";`,
        `new devplatform.Device(${JSON.stringify(sn)}, { sn: ${JSON.stringify(sn)}, name: ${JSON.stringify(name)} });`,
        "",
      ].join("\n");
    const project = await createProject({
      name: `strand-device-update-${front}`,
      front,
      program: program("before"),
      config: { "devplatform:maxRetries": "0", "devplatform:rateLimitWait": "0" },
    });
    assertOk(await project.up());
    const [created] = resourcesOfType(await project.exportStack(), project.token("Device"));
    project.setProgram(program("after"));
    await control.setFaults({ kinds: ["429"], methods: ["PUT"], pathIncludes: "/devices" });
    expectCleanFailure(await project.up(), /429|rate/i);
    await expectNotStranded(project);
    await control.clearFaults();
    assertOk(await project.upWithRefresh());
    const [device] = resourcesOfType(await project.exportStack(), project.token("Device"));
    expect(device?.id).toBe(created?.id);
    expect((await control.state()).devices.filter((d) => d.sn === sn).map((d) => d.name)).toEqual(["after"]);
    assertOk(await project.preview({ expectNoChanges: true }));
    assertOk(await project.destroy());
  });
});
