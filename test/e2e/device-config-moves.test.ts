/**
 * DeviceConfigs moved and failed on the real Pulumi CLI: a rename without alias and a split with
 * `resetOnDelete` write no default over what the new resources manage; a version bump whose task
 * call failed (HTTP 500) is delivered by the next `up`; after a lost task answer (reset after the
 * platform served the call) the next `up` creates no second task, for TSL and for PROFILE. Counts of
 * POST /tasks and PATCH come from the emulator's counters, tasks per device from its control API.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EmulatorControl } from "../../emulator";
import { configsProgram, type NamedConfig } from "./support/config-programs";
import { createProject } from "./support/e2e-project";
import { FRONT_ENDS } from "./support/front-ends";
import { serialNumbers } from "./support/fleet-programs";
import { assertOk, resourcesOfType, type PulumiProject } from "./support/pulumi-project";
import { e2e } from "./support/e2e-context";

describe.each(FRONT_ENDS)("DeviceConfigs renamed, split, and failed mid-write (%s)", (front) => {
  let control: EmulatorControl;
  let project: PulumiProject;
  let ids: string[];
  let profileIds: string[];
  const configs = new Map<string, NamedConfig>();

  function deploy(): void {
    project.setProgram(configsProgram([...configs.values()]));
  }

  async function counted<T>(step: () => Promise<T>): Promise<{ result: T; byRoute: Record<string, number> }> {
    await control.resetCounters();
    const result = await step();
    return { result, byRoute: (await control.counters()).byRoute };
  }

  async function tasksOf(deviceIds: readonly string[]) {
    return (await control.tasks()).filter((t) => deviceIds.includes(t.deviceId));
  }

  /** Waits until these devices have `count` tasks and none is still pending on the platform. */
  async function tasksRan(deviceIds: readonly string[], count: number): Promise<void> {
    await expect
      .poll(async () => {
        const tasks = await tasksOf(deviceIds);
        return tasks.length === count && tasks.every((t) => t.status !== "PENDING");
      })
      .toBe(true);
  }

  async function propertiesOf(deviceId: string): Promise<Record<string, unknown>> {
    const device = (await control.state()).devices.find((d) => d.deviceId === deviceId);
    return device?.properties ?? {};
  }

  async function failNextTaskCall(kind: "500" | "reset-after"): Promise<void> {
    await control.setFaults({ kinds: [kind], methods: ["POST"], pathIncludes: "/tasks", times: 1 });
  }

  async function seed(count: number, model: string): Promise<string[]> {
    const seeded = await Promise.all(
      serialNumbers(count, model).map((sn, i) => control.seedDevice({ sn, name: `moves-${model}-${i}` })),
    );
    return seeded.map((d) => d.deviceId);
  }

  beforeAll(async () => {
    control = new EmulatorControl(e2e().emulatorUrl);
    ids = await seed(7, "24");
    profileIds = await seed(2, "AC");
    const [d1, d2, d3, d4, d5] = ids as [string, string, string, string, string];
    // d6, d7 and the PROFILE devices get their configurations later, each under a fault.
    const managed = { reportInterval: 900, ledEnabled: false };
    configs.set("rename", {
      name: "config-old-name",
      deviceIds: [d1],
      config: { properties: managed, resetOnDelete: true },
    });
    configs.set("split", {
      name: "config-whole",
      deviceIds: [d2, d3],
      config: { properties: managed, resetOnDelete: true },
    });
    configs.set("versioned", {
      name: "config-versioned",
      deviceIds: [d4, d5],
      config: { properties: { reportInterval: 1200 }, version: "v1" },
    });
    project = await createProject({
      front,
      name: `config-moves-${front}`,
      program: configsProgram([...configs.values()]),
    });
  });

  afterAll(async () => {
    await control.clearFaults();
  });

  it("deploys a one-device config, a two-device config and a versioned one", async () => {
    assertOk(await project.up());
    await tasksRan(ids.slice(1, 5), 4);
  });

  it("(a) renames a config with resetOnDelete without alias: the values stay as declared", async () => {
    const [d1] = ids as [string];
    configs.set("rename", { ...(configs.get("rename") as NamedConfig), name: "config-new-name" });
    deploy();
    const { result, byRoute } = await counted(() => project.up());
    assertOk(result);
    expect(result.changes).toMatchObject({ create: 1, delete: 1 });
    expect(result.output).toMatch(
      /resetOnDelete leaves ledEnabled, reportInterval of device\(s\) \d+ as they are/,
    );
    expect(byRoute["PATCH /devices/{deviceId}/properties"]).toBeUndefined();
    expect(byRoute["POST /tasks"]).toBeUndefined();
    expect(await propertiesOf(d1)).toMatchObject({ reportInterval: 900, ledEnabled: false });
    const [config] = resourcesOfType(await project.exportStack(), project.token("DeviceConfig")).filter(
      (r) => r.id === d1,
    );
    expect(config?.outputs?.properties).toEqual({ reportInterval: 900, ledEnabled: false });
    assertOk(await project.refreshExpectingNoChanges());
    assertOk(await project.preview({ expectNoChanges: true }));
  });

  it("(b) splits one config into two with resetOnDelete: nothing is reset, nothing written", async () => {
    const [, d2, d3] = ids as [string, string, string];
    const whole = configs.get("split") as NamedConfig;
    configs.delete("split");
    configs.set("split-a", { name: "config-part-a", deviceIds: [d2], config: whole.config });
    configs.set("split-b", { name: "config-part-b", deviceIds: [d3], config: whole.config });
    deploy();
    const { result, byRoute } = await counted(() => project.up());
    assertOk(result);
    expect(result.changes).toMatchObject({ create: 2, delete: 1 });
    expect(byRoute["PATCH /devices/{deviceId}/properties"]).toBeUndefined();
    expect(byRoute["POST /tasks"]).toBeUndefined();
    for (const id of [d2, d3])
      expect(await propertiesOf(id)).toMatchObject({ reportInterval: 900, ledEnabled: false });
    assertOk(await project.refreshExpectingNoChanges());
    assertOk(await project.preview({ expectNoChanges: true }));
  });

  it("(c) delivers a version bump whose task call failed (HTTP 500) on the next up", async () => {
    const [, , , d4, d5] = ids as [string, string, string, string, string];
    const versioned = configs.get("versioned") as NamedConfig;
    configs.set("versioned", { ...versioned, config: { ...versioned.config, version: "v2" } });
    deploy();
    await failNextTaskCall("500");
    const failed = await project.up();
    await control.clearFaults();
    expect(failed.exitCode).not.toBe(0);
    expect(failed.output).toMatch(/HTTP 500 .*may have created those tasks/);
    const preview = assertOk(await project.preview());
    expect(preview.changes).toMatchObject({ update: 1 });

    const { result, byRoute } = await counted(() => project.up());
    assertOk(result);
    expect(byRoute["POST /tasks"]).toBe(1);
    const v2 = (await tasksOf([d4, d5])).filter((t) => t.config.version === "v2");
    expect(v2.map((t) => t.deviceId).sort()).toEqual([d4, d5].sort());
    await tasksRan([d4, d5], 4);
    assertOk(await project.preview({ expectNoChanges: true }));
    assertOk(await project.refreshExpectingNoChanges());
  });

  it("(d) TSL: after a lost task answer the next up creates no second task", async () => {
    const [, , , , , d6, d7] = ids as [string, string, string, string, string, string, string];
    configs.set("lost-tsl", {
      name: "config-lost-tsl",
      deviceIds: [d6, d7],
      config: { properties: { reportInterval: 1500 } },
    });
    deploy();
    await failNextTaskCall("reset-after");
    const failed = await project.up();
    await control.clearFaults();
    expect(failed.exitCode).not.toBe(0);
    expect(failed.output).toMatch(/got no answer: the platform may have created those tasks/);
    await tasksRan([d6, d7], 2);

    const { result, byRoute } = await counted(() => project.up());
    assertOk(result);
    expect(byRoute["POST /tasks"]).toBeUndefined();
    expect(await tasksOf([d6, d7])).toHaveLength(2);
    assertOk(await project.preview({ expectNoChanges: true }));
  });

  it("(d) PROFILE: after a lost task answer no up sends it again until the version changes", async () => {
    configs.set("lost-profile", {
      name: "config-lost-profile",
      deviceIds: profileIds,
      config: { profile: { ecoMode: true }, version: "p1" },
    });
    deploy();
    await failNextTaskCall("reset-after");
    const failed = await project.up();
    await control.clearFaults();
    expect(failed.exitCode).not.toBe(0);
    expect(failed.output).toMatch(/PROFILE task call for 2 device\(s\) .* only by webhook/);
    await tasksRan(profileIds, 2);

    const held = await counted(() => project.up());
    expect(held.result.exitCode).not.toBe(0);
    expect(held.result.output).toMatch(/Check the task results your webhook received for these devices/);
    expect(held.result.output).toMatch(/change `version` \(e\.g\. to "p1-resend"\)/);
    expect(held.byRoute["POST /tasks"]).toBeUndefined();
    expect(await tasksOf(profileIds)).toHaveLength(2);

    const profile = configs.get("lost-profile") as NamedConfig;
    configs.set("lost-profile", { ...profile, config: { ...profile.config, version: "p2" } });
    deploy();
    const resent = await counted(() => project.up());
    assertOk(resent.result);
    expect(resent.byRoute["POST /tasks"]).toBe(1);
    expect(await tasksOf(profileIds)).toHaveLength(4);
    assertOk(await project.preview({ expectNoChanges: true }));
    assertOk(await project.destroy());
  });
});
