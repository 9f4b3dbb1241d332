/**
 * `up`s killed with SIGKILL at different points — during adds, while configuration tasks are being
 * created, during the deletes of a removal — each followed by `pulumi cancel --yes` (the file
 * backend keeps a dead run's lock) and an `up`: the platform then holds exactly what is declared,
 * with no duplicate device or task, and the ids in state are the platform's. Also with
 * `PULUMI_SKIP_CHECKPOINTS=true`, where a killed run leaves no state at all.
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { EmulatorControl, type FaultConfigInput } from "../../emulator";
import { deviceFleetProgram, serialNumbers, type DeviceSpec, type RpsSpec } from "./support/fleet-programs";
import { createProject } from "./support/e2e-project";
import { assertOk, resourcesOfType, type PulumiProject, type RunOptions } from "./support/pulumi-project";
import { RELIABILITY_PROGRAM, writeStackSpec, type StackSpec } from "./support/reliability-programs";

const DEVICE = "pulumi-nodejs:dynamic/devplatform:Device";
const FLEET = "pulumi-nodejs:dynamic/devplatform:DeviceFleet";

const count = (pattern: RegExp) => (output: string) => (output.match(pattern) ?? []).length;
const created = count(/ created \(/g);
const deleted = count(/ deleted \(/g);

interface Round {
  label: string;
  /** Slows the platform so the kill lands while this kind of request is in flight. */
  slow: FaultConfigInput;
  kill: RunOptions;
}

describe("five ups killed at different points", () => {
  let control: EmulatorControl;
  let project: PulumiProject;
  const everDeclared = new Set<string>();
  const log: string[] = [];

  /** Kills an `up` of `spec` as `round` says, then cancels and runs `up` to the end; checks convergence. */
  async function killThenConverge(spec: StackSpec, round: Round): Promise<void> {
    for (const d of spec.devices) everDeclared.add(d.sn);
    writeStackSpec(project.dir, spec);
    await control.resetCounters();
    await control.setFaults(round.slow);
    const killed = await project.up(round.kill);
    await control.clearFaults();
    expect(killed.exitCode, `the ${round.label} up should have been killed`).not.toBe(0);
    const atKill = (await control.counters()).byRoute;
    assertOk(await project.cli(["cancel", "--yes"]));
    const again = assertOk(await project.up());
    const adopted = (again.output.match(/adopted deviceId/g) ?? []).length;
    log.push(
      `${round.label}: killed after ${JSON.stringify(atKill)}; the next up adopted ${adopted} device(s)`,
    );
    await expectConverged(spec);
  }

  async function expectConverged(spec: StackSpec): Promise<void> {
    const state = await control.state();
    const onPlatform = state.devices.filter((d) => everDeclared.has(d.sn));
    expect(onPlatform.map((d) => `${d.sn}=${d.name}`).sort()).toEqual(
      spec.devices.map((d) => `${d.sn}=${d.name}`).sort(),
    );
    const declaredRps = new Set(spec.rps.map((r) => r.sn));
    expect(
      state.rpsRecords
        .filter((r) => declaredRps.has(r.sn))
        .map((r) => r.profileUrl)
        .sort(),
    ).toEqual(spec.rps.map((r) => r.profileUrl).sort());
    const inState = resourcesOfType(await project.exportStack(), DEVICE);
    expect(inState.map((r) => r.id).sort()).toEqual(onPlatform.map((d) => d.deviceId).sort());
    // No device got the same configuration twice.
    const ids = new Set(onPlatform.map((d) => d.deviceId));
    const seen = new Set<string>();
    for (const task of state.tasks.filter((t) => ids.has(t.deviceId))) {
      const key = `${task.deviceId} ${JSON.stringify(task.config.properties)}`;
      expect(seen.has(key), `a second task for ${key}`).toBe(false);
      seen.add(key);
    }
    assertOk(await project.preview({ expectNoChanges: true }));
  }

  beforeAll(async () => {
    control = new EmulatorControl(inject("e2e").emulatorUrl);
    project = await createProject({ name: "killed", program: RELIABILITY_PROGRAM });
  });

  it("converges after each kill", async () => {
    const slowAdds: FaultConfigInput = {
      kinds: ["delay"],
      delayMs: 150,
      methods: ["POST"],
      pathIncludes: "/devices",
    };
    const rps: RpsSpec[] = serialNumbers(3, "AC").map((sn) => ({
      sn,
      profileUrl: `https://rps.example.com/${sn}`,
    }));
    let devices: DeviceSpec[] = serialNumbers(30).map((sn) => ({ sn, name: `killed-${sn.slice(-4)}` }));
    const spec = (extra: Partial<StackSpec> = {}): StackSpec => ({
      devices,
      rps,
      fleetProperties: { reportInterval: 900 },
      firstDeviceProperties: { alarmThreshold: { high: 30, low: 2 } },
      ...extra,
    });

    await killThenConverge(spec(), {
      label: "1. early in the adds",
      slow: slowAdds,
      kill: { killWhen: (output) => created(output) >= 8 },
    });

    devices = [...devices, ...serialNumbers(15).map((sn) => ({ sn, name: `added-${sn.slice(-4)}` }))];
    await killThenConverge(spec(), {
      label: "2. late in the adds",
      slow: slowAdds,
      kill: { killWhen: (output) => created(output) >= 12 },
    });

    await killThenConverge(spec({ fleetProperties: { reportInterval: 1200 } }), {
      label: "3. while the configuration tasks are created",
      slow: { kinds: ["delay"], delayMs: 2_000, methods: ["POST"], pathIncludes: "/tasks" },
      kill: {
        killWhenPolled: async () => ((await control.counters()).byRoute["POST /tasks"] ?? 0) > 0,
      },
    });

    devices = devices.slice(20);
    await killThenConverge(spec({ fleetProperties: { reportInterval: 1200 } }), {
      label: "4. during the deletes of a removal",
      slow: { kinds: ["delay"], delayMs: 150, methods: ["DELETE"] },
      kill: { killWhen: (output) => deleted(output) >= 5 },
    });

    // Five resources renamed to their serial numbers' spelling in lower case, five added, RPS records added.
    devices = [
      ...devices.map((d, i) => (i < 5 ? { ...d, resource: `renamed-${d.sn}` } : d)),
      ...serialNumbers(5).map((sn) => ({ sn, name: `late-${sn.slice(-4)}` })),
    ];
    const moreRps = serialNumbers(2, "AC").map((sn) => ({ sn, profileUrl: `https://rps.example.com/${sn}` }));
    await killThenConverge(spec({ fleetProperties: { reportInterval: 1200 }, rps: [...rps, ...moreRps] }), {
      label: "5. during renames and adds",
      slow: { kinds: ["delay"], delayMs: 150, methods: ["POST", "PUT"] },
      kill: { killWhen: (output) => created(output) >= 4 },
    });
    console.log(log.join("\n"));
    assertOk(await project.destroy());
  });
});

describe("with PULUMI_SKIP_CHECKPOINTS=true (state written once, at the end)", () => {
  const skip = { env: { PULUMI_SKIP_CHECKPOINTS: "true" } };
  let control: EmulatorControl;

  beforeAll(() => {
    control = new EmulatorControl(inject("e2e").emulatorUrl);
  });

  async function onPlatform(serials: readonly string[]) {
    const wanted = new Set(serials);
    return (await control.state()).devices.filter((d) => wanted.has(d.sn));
  }

  it("an up of Devices killed mid-way converges on the next up: nothing duplicated, nothing outside state", async () => {
    const devices = serialNumbers(40).map((sn) => ({ sn, name: `skip-${sn.slice(-4)}` }));
    const project = await createProject({ name: "skip-devices", program: RELIABILITY_PROGRAM });
    writeStackSpec(project.dir, { devices, rps: [] });
    await control.setFaults({ kinds: ["delay"], delayMs: 100, methods: ["POST"], pathIncludes: "/devices" });
    const killed = await project.up({ ...skip, killWhen: (output) => created(output) >= 15 });
    await control.clearFaults();
    expect(killed.exitCode).not.toBe(0);
    const before = (await onPlatform(devices.map((d) => d.sn))).length;
    expect(before).toBeGreaterThan(0);
    expect(resourcesOfType(await project.exportStack(), DEVICE)).toEqual([]); // nothing was written

    assertOk(await project.cli(["cancel", "--yes"]));
    assertOk(await project.up(skip));
    const after = await onPlatform(devices.map((d) => d.sn));
    expect(after).toHaveLength(40);
    const ids = resourcesOfType(await project.exportStack(), DEVICE).map((r) => r.id);
    expect(ids.sort()).toEqual(after.map((d) => d.deviceId).sort());
    console.log(
      `skip checkpoints, Devices: ${before} of 40 on the platform at the kill, none in state; the next up adopted them`,
    );
    assertOk(await project.destroy(skip));
  });

  it("an up of a DeviceFleet killed mid-way converges on the next up", async () => {
    const devices = serialNumbers(600).map((sn) => ({ sn, name: `skip-fleet-${sn.slice(-4)}` }));
    const project = await createProject({ name: "skip-fleet", program: deviceFleetProgram("skip-fleet") });
    writeFileSync(path.join(project.dir, "fleet.json"), JSON.stringify(devices));
    await control.setFaults({ kinds: ["delay"], delayMs: 20, methods: ["POST"], pathIncludes: "/devices" });
    const killed = await project.up({
      ...skip,
      killWhenPolled: async () => ((await control.counters()).byRoute["POST /devices"] ?? 0) > 200,
    });
    await control.clearFaults();
    expect(killed.exitCode).not.toBe(0);
    // The provider host stops within a second of the CLI's death: no write after that.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const before = (await onPlatform(devices.map((d) => d.sn))).length;
    expect(before).toBeGreaterThan(0);
    expect(before).toBeLessThan(600);

    assertOk(await project.cli(["cancel", "--yes"]));
    await control.resetCounters();
    assertOk(await project.up(skip));
    const { byRoute } = await control.counters();
    const after = await onPlatform(devices.map((d) => d.sn));
    expect(after).toHaveLength(600);
    expect(byRoute["POST /devices"]).toBe(600 - before);
    const [fleet] = resourcesOfType(await project.exportStack(), FLEET);
    const ids = Object.values((fleet?.outputs?.deviceIds ?? {}) as Record<string, string>);
    expect(ids.sort()).toEqual(after.map((d) => d.deviceId).sort());
    console.log(
      `skip checkpoints, DeviceFleet: ${before} of 600 added at the kill; the next up added ${byRoute["POST /devices"]} and adopted the rest with no write`,
    );
    assertOk(await project.destroy(skip));
  });
});
