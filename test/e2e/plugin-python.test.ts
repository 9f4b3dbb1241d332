/**
 * A Python inline program (Automation API, `pulumi` from PyPI at the CLI's version, the generated
 * `pulumi_devplatform`, in the virtual environment `scripts/provision-python.sh` makes) through the
 * provider plugin, found by the work dir's Pulumi.yaml `plugins.providers`: create →
 * `preview --expect-no-changes` → out-of-band change → refresh → update → import (the `import_`
 * resource option) → destroy, for Device, DeviceFleet, RpsProfile, DeviceConfig and `get_device`.
 * Each step's platform requests are counted and printed.
 */
import { execFile } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EmulatorControl } from "../../emulator";
import { importIdOf } from "./support/plugin-imports";
import {
  changeOutOfBand,
  LIFECYCLE_WRITES,
  lifecycleResources,
  platformView,
  RESOURCE_NAMES,
  StepCounter,
  TOKENS,
  type LifecycleResources,
  type LifecycleSpec,
} from "./support/plugin-lifecycle";
import { createPluginProject, provisionPython } from "./support/plugin-toolchain";
import { assertOk, PASSPHRASE, type PulumiProject } from "./support/pulumi-project";
import { e2e } from "./support/e2e-context";

const PROJECT = "plugin-python";
const RUNNER = path.join(__dirname, "python", "plugin_lifecycle.py");

/** What the Python runner prints on its last line. */
interface PythonResult {
  changes: Record<string, number>;
  outputs: Record<string, unknown>;
}

describe("a Python inline program through the plugin", () => {
  const { initial, updated } = lifecycleResources("py");
  let control: EmulatorControl;
  let project: PulumiProject;
  let venv: string;
  let counter: StepCounter;
  let deviceId: string;

  /** Runs one step of the Python program with `spec`, as the Automation API runs the CLI. */
  async function python(step: "up" | "preview" | "refresh" | "destroy", spec: LifecycleSpec) {
    const specFile = path.join(project.dir, `spec-${step}.json`);
    writeFileSync(
      specFile,
      JSON.stringify({ ...spec, workDir: project.dir, stack: "dev", project: PROJECT }),
    );
    const { pulumiDir } = e2e();
    const { stdout } = await promisify(execFile)(path.join(venv, "bin", "python"), [RUNNER, step, specFile], {
      cwd: project.dir,
      maxBuffer: 64 * 1024 * 1024,
      env: {
        ...process.env,
        PATH: `${pulumiDir}${path.delimiter}${process.env.PATH ?? ""}`,
        PULUMI_HOME: path.join(project.dir, ".pulumi-home"),
        PULUMI_BACKEND_URL: `file://${project.stateDir}`,
        PULUMI_CONFIG_PASSPHRASE: PASSPHRASE,
        PULUMI_SKIP_UPDATE_CHECK: "true",
        PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
      },
    });
    const last = stdout.trim().split("\n").pop() ?? "";
    if (!last.startsWith("RESULT ")) throw new Error(`the Python program printed no result:\n${stdout}`);
    return JSON.parse(last.slice("RESULT ".length)) as PythonResult;
  }

  function expectPlatform(res: LifecycleResources) {
    return expect(platformView(control, res)).resolves.toEqual({
      deviceName: res.device.name,
      fleetNames: res.fleet.map((d) => d.name),
      rpsProfileUrl: res.rps.profileUrl,
      reportInterval: res.config.properties["reportInterval"],
    });
  }

  beforeAll(async () => {
    const context = e2e();
    control = new EmulatorControl(context.emulatorUrl);
    counter = new StepCounter(control);
    venv = provisionPython();
    project = await createPluginProject({ name: PROJECT, runtime: "python", files: {} }, context);
  });

  afterAll(() => {
    console.log(counter.table("plugin, Python inline program"));
  });

  it("creates the four resources and reads the device back through get_device", async () => {
    const up = await counter.count("up (create)", () => python("up", { resources: initial }));
    expect(up.changes).toEqual({ create: 5 }); // the stack and the four resources
    expect(counter.of("up (create)").writesByRoute).toEqual(LIFECYCLE_WRITES.create);
    expect(counter.of("up (create)").total).toBe(16); // with 1 token, 3 adoption searches, 4 reads (1 getDevice)
    await expectPlatform(initial);
    deviceId = String(up.outputs["deviceId"]);
    expect(deviceId).toMatch(/^\d+$/);
    expect(up.outputs["getDeviceName"]).toBe(initial.device.name);
    expect(Object.keys(up.outputs["fleetDeviceIds"] as object).sort()).toEqual(
      initial.fleet.map((d) => d.sn).sort(),
    );
    expect(up.outputs["configProperties"]).toEqual(initial.config.properties);
  });

  it("previews no changes right after the up", async () => {
    const preview = await counter.count("preview --expect-no-changes", () =>
      python("preview", { resources: initial }),
    );
    expect(preview.changes).toEqual({ same: 5 });
    expect(counter.of("preview --expect-no-changes").writes).toBe(0);
    expect(counter.of("preview --expect-no-changes").total).toBe(2); // the token and getDevice's read
  });

  it("finds each resource's out-of-band change on refresh", async () => {
    const changed = await changeOutOfBand(control, e2e().emulatorUrl, initial);
    const refresh = await counter.count("refresh (4 changed out of band)", () =>
      python("refresh", { resources: initial }),
    );
    expect(refresh.changes).toEqual({ update: 4, same: 1 });
    expect(counter.of("refresh (4 changed out of band)").writes).toBe(0);
    expect(counter.of("refresh (4 changed out of band)").total).toBe(6);
    const state = await project.exportStack();
    const outputsOf = (token: string) => state.deployment.resources?.find((r) => r.type === token)?.outputs;
    expect(outputsOf(TOKENS.rps)?.["profileUrl"]).toBe(changed.rpsProfileUrl);
    expect(outputsOf(TOKENS.config)?.["properties"]).toEqual({ reportInterval: changed.reportInterval });
    expect(outputsOf(TOKENS.device)?.["name"]).toBe(changed.deviceName);
  });

  it("updates every resource in place to the new program", async () => {
    const up = await counter.count("up (update all four)", () => python("up", { resources: updated }));
    expect(up.changes).toEqual({ update: 4, same: 1 });
    // The three devices: the Device renamed, one fleet device renamed, the other's drift undone.
    expect(counter.of("up (update all four)").writesByRoute).toEqual(LIFECYCLE_WRITES.update);
    expect(counter.of("up (update all four)").total).toBe(10);
    await expectPlatform(updated);
    expect(up.outputs["getDeviceName"]).toBe(updated.device.name);
    expect((await python("preview", { resources: updated })).changes).toEqual({ same: 5 });
  });

  it("imports each resource with the import_ option, writing nothing, and then previews no changes", async () => {
    for (const name of RESOURCE_NAMES) {
      const urn = `urn:pulumi:dev::${PROJECT}::${TOKENS[name]}::${name}`;
      assertOk(await project.cli(["state", "delete", urn, "--yes"]));
    }
    const imports = Object.fromEntries(
      RESOURCE_NAMES.map((name) => [name, importIdOf(name, updated, deviceId)]),
    );
    const up = await counter.count("up (import all four)", () =>
      python("up", { resources: updated, imports }),
    );
    expect(up.changes).toEqual({ import: 4, same: 1 });
    expect(counter.of("up (import all four)").writes).toBe(0);
    expect(counter.of("up (import all four)").total).toBe(6);
    const preview = await counter.count("preview after import", () =>
      python("preview", { resources: updated }),
    );
    expect(preview.changes).toEqual({ same: 5 });
    expect(counter.of("preview after import").total).toBe(2);
    await expectPlatform(updated);
  });

  it("destroys the four resources on the platform", async () => {
    const destroy = await counter.count("destroy", () => python("destroy", { resources: updated }));
    expect(destroy.changes).toEqual({ delete: 5 });
    expect(counter.of("destroy").writesByRoute).toEqual({
      "DELETE /devices/{deviceId}": 3,
      "DELETE /rps/{sn}": 1,
    });
    expect(counter.of("destroy").total).toBe(8);
    expect(await platformView(control, updated)).toMatchObject({
      deviceName: undefined,
      fleetNames: [undefined, undefined],
      rpsProfileUrl: undefined,
    });
  });
});
