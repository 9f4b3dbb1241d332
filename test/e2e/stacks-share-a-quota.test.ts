/**
 * The daily quota as a budget 3 stacks share, on the real CLI: 3 stacks of 20 devices (one dynamic
 * DeviceFleet each) on one application whose plan allows 40 requests a day, their `up`s started
 * together. The quota runs out mid-way: each stack that meets it stops at once, says how many
 * devices of its fleet are left and that the next `up` after the quota renews continues, and
 * records exactly what it did — every device on the platform is in one stack's state, under the
 * platform's id. The next day (clock control) every `up` succeeds, sending Add a Device exactly for
 * the devices still missing: none is lost, none sent again.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { deviceFleetProgram, serialNumbers, type FleetDeviceSpec } from "./support/fleet-programs";
import { createProject } from "./support/e2e-project";
import { assertOk, resourcesOfType, type PulumiProject } from "./support/pulumi-project";

const STACKS = 3;
const DEVICES = 20;
const QUOTA = 40;

describe(`${STACKS} stacks × ${DEVICES} devices against a daily quota of ${QUOTA} requests`, () => {
  let emulator: RunningEmulator;
  let projects: PulumiProject[];

  beforeAll(async () => {
    emulator = await startEmulator({ control: true, dailyQuota: QUOTA });
    projects = await Promise.all(
      Array.from({ length: STACKS }, (_, stack) => {
        const devices: FleetDeviceSpec[] = serialNumbers(DEVICES, `2E${stack}`).map((sn, i) => ({
          sn,
          name: `quota-${stack}-${i}`,
        }));
        return createProject({
          name: `shared-quota-${stack}`,
          program: deviceFleetProgram(`site-${stack}`, [], { concurrency: 4 }),
          files: { "fleet.json": JSON.stringify(devices) },
          config: { "devplatform:baseUrl": emulator.url },
        });
      }),
    );
  });
  afterAll(async () => {
    await emulator.stop();
  });

  async function stateIds(): Promise<Map<string, string>> {
    const ids = new Map<string, string>();
    for (const project of projects) {
      const [fleet] = resourcesOfType(await project.exportStack(), project.token("DeviceFleet"));
      for (const [sn, id] of Object.entries((fleet?.outputs?.deviceIds ?? {}) as Record<string, string>))
        ids.set(sn, id);
    }
    return ids;
  }

  async function platformIds(): Promise<Map<string, string>> {
    return new Map((await emulator.control.state()).devices.map((d) => [d.sn, d.deviceId]));
  }

  it("stops each stack that meets the spent quota, recording exactly what it did", async () => {
    const ups = await Promise.all(projects.map((project) => project.up()));
    const stopped = ups.filter((up) => up.exitCode !== 0);
    expect(stopped.length).toBeGreaterThanOrEqual(1);
    for (const up of stopped) {
      expect(up.output).toContain("stopped: the plan's daily request quota is spent");
      expect(up.output).toMatch(/Done and recorded in the stack: \d+ added/);
      expect(up.output).toMatch(/Left: \d+ to add/);
      expect(up.output).toContain("once the quota has renewed (the next day)");
    }
    const onPlatform = await platformIds();
    expect(onPlatform.size).toBeLessThan(STACKS * DEVICES);
    // Nothing lost: every device the platform holds is in a stack's state, under its id.
    expect(await stateIds()).toEqual(onPlatform);
  });

  it("the next day, every up continues where it stopped: each missing device added once", async () => {
    const before = (await platformIds()).size;
    const { nextDayAt } = await emulator.control.quota();
    await emulator.control.advanceClock(Math.ceil((nextDayAt - Date.now()) / 1000) + 1);
    await emulator.control.resetCounters();
    const ups = await Promise.all(projects.map((project) => project.up()));
    ups.forEach((up) => assertOk(up));
    expect((await emulator.control.counters()).byRoute["POST /devices"]).toBe(STACKS * DEVICES - before);
    const onPlatform = await platformIds();
    expect(onPlatform.size).toBe(STACKS * DEVICES);
    expect(await stateIds()).toEqual(onPlatform);
  });
});
