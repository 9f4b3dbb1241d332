/**
 * A TypeScript program on the SDK generated from schema.json (`@devplatform/pulumi`, compiled and
 * packed as a user installs it), run by the real CLI through the provider plugin's launcher from the
 * packed package (Pulumi.yaml `plugins.providers`): create → `preview --expect-no-changes` →
 * out-of-band change → refresh → update → `pulumi import` → destroy, for Device, DeviceFleet,
 * RpsProfile, DeviceConfig and `getDevice`. Each step's platform requests are counted and printed.
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EmulatorControl } from "../../emulator";
import {
  changeOutOfBand,
  LIFECYCLE_WRITES,
  lifecycleResources,
  platformView,
  RESOURCE_NAMES,
  SPEC_FILE,
  StepCounter,
  TOKENS,
  type LifecycleResources,
  type LifecycleSpec,
} from "./support/plugin-lifecycle";
import { NODE_SDK_PROGRAM } from "./support/plugin-sdk-programs";
import { createPluginProject, installGeneratedNodeSdk } from "./support/plugin-toolchain";
import { assertOk, TEST_TSCONFIG, type PulumiProject } from "./support/pulumi-project";
import { importIdOf } from "./support/plugin-imports";
import { e2e } from "./support/e2e-context";

describe("a TypeScript program on the generated SDK, through the plugin", () => {
  const { initial, updated } = lifecycleResources("ts-sdk");
  let control: EmulatorControl;
  let project: PulumiProject;
  let counter: StepCounter;

  function writeSpec(spec: LifecycleSpec): void {
    writeFileSync(path.join(project.dir, SPEC_FILE), JSON.stringify(spec));
  }

  async function outputs(): Promise<Record<string, unknown>> {
    const result = await project.cli(["stack", "output", "--json", "--show-secrets"]);
    return JSON.parse(assertOk(result).stdout) as Record<string, unknown>;
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
    const nodeModules = installGeneratedNodeSdk(context.workDir, context.tarball);
    project = await createPluginProject(
      {
        name: "plugin-ts-sdk",
        runtime: "nodejs",
        files: {
          "index.ts": NODE_SDK_PROGRAM,
          "package.json": JSON.stringify({ name: "plugin-ts-sdk", private: true }),
          "tsconfig.json": TEST_TSCONFIG,
          [SPEC_FILE]: JSON.stringify({ resources: initial }),
        },
      },
      { ...context, nodeModules },
    );
  });

  afterAll(() => {
    console.log(counter.table("plugin, TypeScript on the generated SDK"));
  });

  it("creates the four resources and reads the device back through getDevice", async () => {
    const up = assertOk(await counter.count("up (create)", () => project.up()));
    expect(up.changes).toEqual({ create: 5 }); // the stack and the four resources
    expect(counter.of("up (create)").writesByRoute).toEqual(LIFECYCLE_WRITES.create);
    expect(counter.of("up (create)").total).toBe(16); // with 1 token, 3 adoption searches, 4 reads (1 getDevice)
    await expectPlatform(initial);
    const out = await outputs();
    expect(out["deviceId"]).toMatch(/^\d+$/);
    expect(out["getDeviceName"]).toBe(initial.device.name);
    expect(Object.keys(out["fleetDeviceIds"] as object).sort()).toEqual(
      initial.fleet.map((d) => d.sn).sort(),
    );
    expect(out["rpsProfileUrl"]).toBe(initial.rps.profileUrl);
    expect(out["configProperties"]).toEqual(initial.config.properties);
  });

  it("previews no changes right after the up", async () => {
    const preview = assertOk(
      await counter.count("preview --expect-no-changes", () => project.preview({ expectNoChanges: true })),
    );
    expect(preview.changes).toEqual({ same: 5 });
    expect(counter.of("preview --expect-no-changes").writes).toBe(0);
    expect(counter.of("preview --expect-no-changes").total).toBe(2); // the token and getDevice's read
  });

  it("finds each resource's out-of-band change on refresh", async () => {
    const changed = await changeOutOfBand(control, e2e().emulatorUrl, initial);
    const refresh = assertOk(await counter.count("refresh (4 changed out of band)", () => project.refresh()));
    expect(refresh.changes).toEqual({ update: 4, same: 1 });
    expect(counter.of("refresh (4 changed out of band)").writes).toBe(0);
    expect(counter.of("refresh (4 changed out of band)").total).toBe(6);
    // A refresh updates state, not the stack's outputs (those change with the next up).
    const state = await project.exportStack();
    const outputsOf = (token: string) => state.deployment.resources?.find((r) => r.type === token)?.outputs;
    expect(outputsOf(TOKENS.rps)?.["profileUrl"]).toBe(changed.rpsProfileUrl);
    expect(outputsOf(TOKENS.config)?.["properties"]).toEqual({ reportInterval: changed.reportInterval });
    expect(outputsOf(TOKENS.device)?.["name"]).toBe(changed.deviceName);
  });

  it("updates every resource in place to the new program", async () => {
    writeSpec({ resources: updated });
    const up = assertOk(await counter.count("up (update all four)", () => project.up()));
    expect(up.changes).toEqual({ update: 4, same: 1 });
    // The three devices: the Device renamed, one fleet device renamed, the other's drift undone.
    expect(counter.of("up (update all four)").writesByRoute).toEqual(LIFECYCLE_WRITES.update);
    expect(counter.of("up (update all four)").total).toBe(10);
    await expectPlatform(updated);
    expect((await outputs())["getDeviceName"]).toBe(updated.device.name);
    assertOk(await project.preview({ expectNoChanges: true }));
  });

  it("imports each resource with `pulumi import` and then previews no changes, writing nothing", async () => {
    const deviceId = String((await outputs())["deviceId"]);
    for (const name of RESOURCE_NAMES) {
      const urn = `urn:pulumi:dev::plugin-ts-sdk::${TOKENS[name]}::${name}`;
      assertOk(await project.cli(["state", "delete", urn, "--yes"]));
    }
    for (const name of RESOURCE_NAMES) {
      const id = importIdOf(name, updated, deviceId);
      const imported = assertOk(
        await counter.count(`import ${name}`, () => project.import(TOKENS[name], name, id)),
      );
      expect(imported.changes).toMatchObject({ import: 1 });
      expect(counter.of(`import ${name}`).writes).toBe(0);
      expect(counter.of(`import ${name}`).total).toBe(2); // the token and one read or search
    }
    const preview = assertOk(
      await counter.count("preview after import", () => project.preview({ expectNoChanges: true })),
    );
    expect(preview.changes).toEqual({ same: 5 });
    expect(counter.of("preview after import").total).toBe(2);
    await expectPlatform(updated);
  });

  it("destroys the four resources on the platform once unprotected", async () => {
    // `pulumi import` protects what it imports, as the CLI does for every provider.
    const state = await project.exportStack();
    const imported = (state.deployment.resources ?? []).filter((r) =>
      r.type.startsWith("devplatform:index:"),
    );
    expect(imported.map((r) => (r as { protect?: boolean }).protect)).toEqual([true, true, true, true]);
    assertOk(await project.cli(["state", "unprotect", "--all", "--yes"]));
    const destroy = assertOk(await counter.count("destroy", () => project.destroy()));
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
