/**
 * `up`s killed with SIGKILL at exact points — during adds, while configuration tasks are being
 * created, during the deletes of a removal — each followed by `pulumi cancel --yes` (the file
 * backend keeps a dead run's lock) and an `up`: the platform then holds exactly what is declared,
 * with no duplicate device or task, and the ids in state are the platform's. Also with
 * `PULUMI_SKIP_CHECKPOINTS=true`, where a killed run leaves no state at all.
 *
 * A kill point is a request count, never a moment: the emulator holds a route's requests after the
 * Nth, the CLI is killed once the expected number wait there (every engine worker — `--parallel 8`
 * — or fleet worker blocked on one, or fewer with every other step recorded in the checkpoint), its
 * plugins end, and only then are the held requests released: performed (the platform got them, the
 * client never heard back) or failed unperformed. So every figure below is exact.
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { EmulatorControl, type HoldThen } from "../../emulator";
import { deviceFleetProgram, serialNumbers, type DeviceSpec, type RpsSpec } from "./support/fleet-programs";
import { createProject } from "./support/e2e-project";
import { FRONT_ENDS } from "./support/front-ends";
import {
  assertOk,
  resourcesOfType,
  type CommandResult,
  type PulumiProject,
  type RunOptions,
} from "./support/pulumi-project";
import { RELIABILITY_PROGRAM, writeStackSpec, type StackSpec } from "./support/reliability-programs";
import { e2e } from "./support/e2e-context";

/** Engine workers of a killed `up`: the number of requests that end up waiting at a full hold. */
const PARALLEL = 8;

/** Devices a run adopted (each warning is printed twice: as it happens and in the summary). */
const adoptedIn = (result: CommandResult) =>
  new Set([...result.output.matchAll(/Device sn=(\S+): adopted deviceId/g)].map((m) => m[1])).size;

/** Where to kill: the hold, and how many requests wait there when the CLI is killed. */
interface KillPoint {
  route: string;
  after: number;
  held: number;
  then: HoldThen;
}

/**
 * Sets the hold, runs `run` with it as its kill point, checks the kill came exactly there and that
 * every process of the run has ended, then releases the held requests. Returns the plugins' linger.
 */
async function killAt(
  control: EmulatorControl,
  point: KillPoint,
  run: (options: RunOptions) => Promise<CommandResult>,
  andWhen?: () => boolean,
): Promise<number> {
  const holdId = await control.hold(point.route, point.after, point.then);
  const killed = await run({ killWhenHeld: { control, holdId, held: point.held, andWhen } });
  expect(killed.exitCode, "the up should have been killed").not.toBe(0);
  expect(killed.killed).toBeDefined();
  // Nothing of the run is alive: the hold is exactly as it was at the kill.
  expect((await control.holds()).find((h) => h.holdId === holdId)).toMatchObject({
    passed: point.after,
    held: point.held,
  });
  expect(await control.release(holdId)).toBe(point.held);
  return killed.killed?.pluginsEndedAfterMs ?? -1;
}

/** Waits until no configuration task is PENDING: a released task call's tasks are applied. */
async function tasksSettled(control: EmulatorControl): Promise<void> {
  for (let attempt = 0; ; attempt += 1) {
    if ((await control.tasks()).every((t) => t.status !== "PENDING")) return;
    if (attempt > 6_000) throw new Error("configuration tasks did not settle");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

interface Round {
  label: string;
  kill: KillPoint;
  /** RpsProfiles recorded at the kill, where their steps run beside the held ones. */
  rpsInState?: number;
  /**
   * Exact figures: Devices in state at the kill, devices of the stack on the platform after the
   * release; devices the next `up` adopted, POSTed, DELETEd, and its task calls.
   */
  expected: {
    inState: number;
    onPlatform: number;
    adopted: number;
    added: number;
    deleted: number;
    taskCalls: number;
  };
}

// A test that failed between its kill and its release must not leave a hold that stops every
// later test's requests: release what is still set.
afterEach(async () => {
  const control = new EmulatorControl(e2e().emulatorUrl);
  for (const hold of await control.holds()) await control.release(hold.holdId);
});

describe.each(FRONT_ENDS)("five ups killed at exact points (%s)", (front) => {
  let control: EmulatorControl;
  let project: PulumiProject;
  const everDeclared = new Set<string>();
  const log: string[] = [];

  async function stackDevicesOnPlatform(): Promise<number> {
    return (await control.state()).devices.filter((d) => everDeclared.has(d.sn)).length;
  }

  /** Kills an `up` of `spec` at `round`'s point, then cancels and runs `up` to the end; checks convergence. */
  async function killThenConverge(spec: StackSpec, round: Round): Promise<void> {
    for (const d of spec.devices) everDeclared.add(d.sn);
    writeStackSpec(project.dir, spec);
    await control.resetCounters();
    // Fewer requests than engine workers may wait at the hold; the other workers' steps, which
    // do not wait there, must be recorded before the kill, or the figures would depend on timing.
    const lingerMs = await killAt(
      control,
      round.kill,
      (options) => project.up({ ...options, parallel: PARALLEL }),
      // Every step that does not wait at the hold is recorded: none is being written at the kill (a
      // SIGKILL mid-write leaves a truncated checkpoint: "failed to load checkpoint: EOF").
      () =>
        project.checkpointCount(project.token("Device")) === round.expected.inState &&
        (round.rpsInState === undefined ||
          project.checkpointCount(project.token("RpsProfile")) === round.rpsInState),
    );
    const atKill = (await control.counters()).byRoute;
    const inState = resourcesOfType(await project.exportStack(), project.token("Device")).length;
    // A released task call's tasks are applied before the next up reads the configuration.
    await tasksSettled(control);
    const onPlatform = await stackDevicesOnPlatform();
    assertOk(await project.cli(["cancel", "--yes"]));
    await control.resetCounters();
    const again = assertOk(await project.up());
    const next = (await control.counters()).byRoute;
    const figures = {
      inState,
      onPlatform,
      adopted: adoptedIn(again),
      added: next["POST /devices"] ?? 0,
      deleted: next["DELETE /devices/{deviceId}"] ?? 0,
      taskCalls: next["POST /tasks"] ?? 0,
    };
    log.push(
      `${round.label}: killed with ${round.kill.held} ${round.kill.route} held after ${round.kill.after} ` +
        `(released: ${round.kill.then}; plugins ended ${lingerMs} ms after the CLI); requests before the kill ` +
        `${JSON.stringify(atKill)}; ${JSON.stringify(figures)}; the next up: ${JSON.stringify(next)}`,
    );
    expect(figures).toEqual(round.expected);
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
    const inState = resourcesOfType(await project.exportStack(), project.token("Device"));
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
    control = new EmulatorControl(e2e().emulatorUrl);
    project = await createProject({ name: `killed-${front}`, program: RELIABILITY_PROGRAM, front });
  });

  it("converges after each kill", async () => {
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

    // 8 added and recorded, 8 more added whose answers the dead CLI never got: adopted next time.
    await killThenConverge(spec(), {
      label: "1. early in the adds",
      kill: { route: "POST /devices", after: 8, held: PARALLEL, then: "perform" },
      expected: { inState: 8, onPlatform: 16, adopted: 8, added: 14, deleted: 0, taskCalls: 1 },
    });

    // 12 of 15 added; the 3 requests in flight fail unperformed: added next time.
    devices = [...devices, ...serialNumbers(15).map((sn) => ({ sn, name: `added-${sn.slice(-4)}` }))];
    await killThenConverge(spec(), {
      label: "2. late in the adds",
      kill: { route: "POST /devices", after: 12, held: 3, then: "fail" },
      expected: { inState: 42, onPlatform: 42, adopted: 0, added: 3, deleted: 0, taskCalls: 1 },
    });

    // The task call reaches the platform, its answer never reaches the CLI; the next up (run once the
    // tasks are applied: a pending TSL task cannot be seen) sends none.
    await killThenConverge(spec({ fleetProperties: { reportInterval: 1200 } }), {
      label: "3. while the configuration tasks are created",
      kill: { route: "POST /tasks", after: 0, held: 1, then: "perform" },
      expected: { inState: 45, onPlatform: 45, adopted: 0, added: 0, deleted: 0, taskCalls: 0 },
    });

    // 5 deleted and recorded, 8 more deleted unrecorded: the next up finds those 8 gone (a GET each)
    // and deletes the other 7.
    devices = devices.slice(20);
    await killThenConverge(spec({ fleetProperties: { reportInterval: 1200 } }), {
      label: "4. during the deletes of a removal",
      kill: { route: "DELETE /devices/{deviceId}", after: 5, held: PARALLEL, then: "perform" },
      expected: { inState: 40, onPlatform: 32, adopted: 0, added: 0, deleted: 7, taskCalls: 0 },
    });

    // Five resources renamed to their serial numbers' spelling in lower case, five added, RPS records added.
    devices = [
      ...devices.map((d, i) => (i < 5 ? { ...d, resource: `renamed-${d.sn}` } : d)),
      ...serialNumbers(5).map((sn) => ({ sn, name: `late-${sn.slice(-4)}` })),
    ];
    const moreRps = serialNumbers(2, "AC").map((sn) => ({ sn, profileUrl: `https://rps.example.com/${sn}` }));
    await killThenConverge(spec({ fleetProperties: { reportInterval: 1200 }, rps: [...rps, ...moreRps] }), {
      label: "5. during renames and adds",
      kill: { route: "POST /devices", after: 2, held: 3, then: "perform" },
      rpsInState: 5,
      expected: { inState: 32, onPlatform: 30, adopted: 3, added: 0, deleted: 0, taskCalls: 1 },
    });
    console.log(log.join("\n"));
    assertOk(await project.destroy());
  });
});

describe.each(FRONT_ENDS)(
  "with PULUMI_SKIP_CHECKPOINTS=true (state written once, at the end) (%s)",
  (front) => {
    const skip = { env: { PULUMI_SKIP_CHECKPOINTS: "true" } };
    let control: EmulatorControl;

    beforeAll(() => {
      control = new EmulatorControl(e2e().emulatorUrl);
    });

    async function onPlatform(serials: readonly string[]) {
      const wanted = new Set(serials);
      return (await control.state()).devices.filter((d) => wanted.has(d.sn));
    }

    it("an up of Devices killed mid-way converges on the next up: nothing duplicated, nothing outside state", async () => {
      const devices = serialNumbers(40).map((sn) => ({ sn, name: `skip-${sn.slice(-4)}` }));
      const project = await createProject({
        name: `skip-devices-${front}`,
        program: RELIABILITY_PROGRAM,
        front,
      });
      writeStackSpec(project.dir, { devices, rps: [] });
      // 15 answered, 8 more performed unanswered: 23 on the platform, none in state.
      await killAt(
        control,
        { route: "POST /devices", after: 15, held: PARALLEL, then: "perform" },
        (options) => project.up({ ...skip, ...options, parallel: PARALLEL }),
      );
      const before = (await onPlatform(devices.map((d) => d.sn))).length;
      expect(before).toBe(23);
      expect(resourcesOfType(await project.exportStack(), project.token("Device"))).toEqual([]); // nothing was written

      assertOk(await project.cli(["cancel", "--yes"]));
      await control.resetCounters();
      const again = assertOk(await project.up(skip));
      expect((await control.counters()).byRoute["POST /devices"]).toBe(17);
      expect(adoptedIn(again)).toBe(23);
      const after = await onPlatform(devices.map((d) => d.sn));
      expect(after).toHaveLength(40);
      const ids = resourcesOfType(await project.exportStack(), project.token("Device")).map((r) => r.id);
      expect(ids.sort()).toEqual(after.map((d) => d.deviceId).sort());
      console.log(
        `skip checkpoints, Devices: ${before} of 40 on the platform at the kill, none in state; the next up adopted them and added 17`,
      );
      assertOk(await project.destroy(skip));
    });

    it("an up of a DeviceFleet killed mid-way converges on the next up", async () => {
      const devices = serialNumbers(600).map((sn) => ({ sn, name: `skip-fleet-${sn.slice(-4)}` }));
      const project = await createProject({
        name: `skip-fleet-${front}`,
        program: deviceFleetProgram("skip-fleet"),
        front,
      });
      writeFileSync(path.join(project.dir, "fleet.json"), JSON.stringify(devices));
      // 200 answered, one more per fleet worker (concurrency 16) performed unanswered.
      await killAt(control, { route: "POST /devices", after: 200, held: 16, then: "perform" }, (options) =>
        project.up({ ...skip, ...options }),
      );
      const before = (await onPlatform(devices.map((d) => d.sn))).length;
      expect(before).toBe(216);

      assertOk(await project.cli(["cancel", "--yes"]));
      await control.resetCounters();
      assertOk(await project.up(skip));
      const { byRoute } = await control.counters();
      const after = await onPlatform(devices.map((d) => d.sn));
      expect(after).toHaveLength(600);
      expect(byRoute["POST /devices"]).toBe(384);
      const [fleet] = resourcesOfType(await project.exportStack(), project.token("DeviceFleet"));
      const ids = Object.values((fleet?.outputs?.deviceIds ?? {}) as Record<string, string>);
      expect(ids.sort()).toEqual(after.map((d) => d.deviceId).sort());
      console.log(
        `skip checkpoints, DeviceFleet: ${before} of 600 added at the kill; the next up added ${byRoute["POST /devices"]} and adopted the rest with no write`,
      );
      assertOk(await project.destroy(skip));
    });
  },
);
