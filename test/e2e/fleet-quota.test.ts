/**
 * The plan's daily request quota on the real CLI: an emulator started with a daily quota (as
 * `--daily-quota 22`) lets a new fleet of 40 devices preview (1 request) and then run out mid-way.
 * The `up` fails at once — no retry: every refused request is counted once by the emulator — with
 * the message saying the quota is spent and how many requests remain; the state holds exactly the
 * devices added. The preview that follows says what remains without a request. The next emulator
 * day (clock control) the `up` converges with exactly the requests the preview gave: every device
 * once on the platform, and `preview --expect-no-changes` clean. Prints the figures.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_APPLICATION_ID, startEmulator, type RunningEmulator } from "../../emulator";
import { deviceFleetProgram, serialNumbers, type FleetDeviceSpec } from "./support/fleet-programs";
import { createProject } from "./support/e2e-project";
import { FRONT_ENDS } from "./support/front-ends";
import { assertOk, resourcesOfType, type PulumiProject } from "./support/pulumi-project";

const COUNT = 40;
const QUOTA = 22;
const CONCURRENCY = 4;
let emulator: RunningEmulator;

async function quotaUse() {
  const use = (await emulator.control.quota()).applications[DEFAULT_APPLICATION_ID];
  return use ?? { used: 0, remaining: QUOTA, refused: 0 };
}

async function stateIds(project: PulumiProject): Promise<Record<string, string>> {
  const [fleet] = resourcesOfType(await project.exportStack(), project.token("DeviceFleet"));
  return (fleet?.outputs?.deviceIds ?? {}) as Record<string, string>;
}

describe.each(FRONT_ENDS)(`a fleet of ${COUNT} against a daily quota of ${QUOTA} requests (%s)`, (front) => {
  let project: PulumiProject;
  let devices: FleetDeviceSpec[];
  const figures: Record<string, unknown> = {};

  // An emulator of its own per front-end: the quota is the platform's, per application and day.
  beforeAll(async () => {
    emulator = await startEmulator({ control: true, dailyQuota: QUOTA });
  });
  afterAll(async () => {
    await emulator.stop();
  });

  beforeAll(async () => {
    devices = serialNumbers(COUNT, "24").map((sn, i) => ({ sn, name: `quota-${i}`, tags: ["quota"] }));
    project = await createProject({
      name: `fleet-quota-${front}`,
      front,
      program: deviceFleetProgram("site-q", [], { concurrency: CONCURRENCY }),
      files: { "fleet.json": JSON.stringify(devices) },
      config: { "devplatform:baseUrl": emulator.url },
    });
  });

  it("previews the requests the up makes", async () => {
    const preview = assertOk(await project.preview());
    expect(preview.output).toMatch(
      /DeviceFleet site-q: 40 to add \(.*\); its `up` makes 42 requests \(1 lookup, 40 writes, 1 confirmation\)/,
    );
    figures.preview = await quotaUse();
    expect(await quotaUse()).toEqual({ used: 1, remaining: QUOTA - 1, refused: 0 });
  });

  it("runs out mid-way: fails at once with what is left, nothing retried, the devices added in state", async () => {
    await emulator.control.resetCounters();
    const up = await project.up();
    expect(up.exitCode).not.toBe(0);
    expect(up.output).toContain("create DeviceFleet site-q stopped: the plan's daily request quota is spent");
    expect(up.output).toMatch(/HTTP 429 quota_exhausted: the daily request quota of 22 requests/);
    expect(up.output).toContain("Done and recorded in the stack: 20 added, 0 updated, 0 removed");
    expect(up.output).toContain(
      "Left: 20 to add, 0 to update, 0 to remove; left to make: 22 requests (1 lookup, 20 writes, 1 confirmation)",
    );
    const use = await quotaUse();
    const { byRoute } = await emulator.control.counters();
    figures["up that runs out"] = { quota: use, byRoute };
    // The quota allowed 21 more: the lookup and 20 adds. Each refusal is one request, never repeated:
    // at most one per add in flight, and no request at all after the fan-out stopped.
    expect(use.used).toBe(QUOTA);
    expect(use.refused).toBeGreaterThanOrEqual(1);
    expect(use.refused).toBeLessThanOrEqual(CONCURRENCY);
    expect(byRoute["POST /devices"]).toBe(20 + use.refused);
    expect(byRoute["POST /devices/search"]).toBe(1);
    const onPlatform = (await emulator.control.state()).devices;
    expect(onPlatform).toHaveLength(20);
    const ids = await stateIds(project);
    expect(Object.keys(ids)).toHaveLength(20);
    expect(onPlatform.every((d) => ids[d.sn] === d.deviceId)).toBe(true);
  });

  it("previews what remains the same day, without a request", async () => {
    const before = await quotaUse();
    const preview = assertOk(await project.preview());
    expect(preview.output).toMatch(
      /DeviceFleet site-q: 20 to add \(.*\), 20 unchanged; its `up` makes 22 requests \(1 lookup, 20 writes, 1 confirmation\)/,
    );
    expect(await quotaUse()).toEqual(before);
  });

  it("converges the next day with the requests the preview gave: every device once", async () => {
    const { nextDayAt } = await emulator.control.quota();
    await emulator.control.advanceClock(Math.ceil((nextDayAt - Date.now()) / 1000) + 1);
    await emulator.control.resetCounters();
    assertOk(await project.up());
    const use = await quotaUse();
    figures["up the next day"] = { quota: use, byRoute: (await emulator.control.counters()).byRoute };
    expect(use).toEqual({ used: 22, remaining: 0, refused: 0 });
    const onPlatform = (await emulator.control.state()).devices;
    expect(onPlatform).toHaveLength(COUNT);
    expect(new Set(onPlatform.map((d) => d.sn)).size).toBe(COUNT);
    const ids = await stateIds(project);
    expect(onPlatform.every((d) => ids[d.sn] === d.deviceId)).toBe(true);
    assertOk(await project.preview({ expectNoChanges: true }));
    expect((await quotaUse()).refused).toBe(0);
  });

  it("destroys once the quota allows it", async () => {
    await emulator.control.setQuota({ dailyQuota: null });
    assertOk(await project.destroy());
    expect((await emulator.control.state()).devices).toEqual([]);
    console.log(`DeviceFleet of ${COUNT}, daily quota ${QUOTA}:\n${JSON.stringify(figures, null, 2)}`);
  });
});
