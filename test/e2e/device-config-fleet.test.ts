/**
 * One DeviceConfig for 1,200 devices on the real Pulumi CLI. The devices are seeded directly in the
 * emulator (1,200 Device resources would only slow the run down) and their ids handed to the
 * program as a list. The rollout goes by configuration tasks — 3 calls of at most 500 devices —
 * drift on one device is found by refresh and corrected by up, and the request figures of each
 * step are printed.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { EmulatorControl, type CounterSnapshot } from "../../emulator";
import { DEVICE_CONFIG, deviceIdsFile, fleetConfigProgram, type ConfigSpec } from "./support/config-programs";
import { createProject } from "./support/e2e-project";
import { serialNumbers } from "./support/fleet-programs";
import { assertOk, resourcesOfType, type PulumiProject } from "./support/pulumi-project";
import { e2e } from "./support/e2e-context";

const FLEET_SIZE = 1200;
const CONFIG: ConfigSpec = { properties: { reportInterval: 1800, ledEnabled: false }, version: "rollout-1" };

function writes(counters: Record<string, number>): number {
  return Object.entries(counters)
    .filter(([route]) => !route.startsWith("GET ") && route !== "POST /oauth/token")
    .reduce((sum, [, count]) => sum + count, 0);
}

describe(`one DeviceConfig for ${FLEET_SIZE} devices`, () => {
  let control: EmulatorControl;
  let project: PulumiProject;
  let deviceIds: string[];
  const requests: Record<string, CounterSnapshot> = {};

  async function counted<T>(label: string, step: () => Promise<T>): Promise<T> {
    await control.resetCounters();
    const result = await step();
    requests[label] = await control.counters();
    console.log(`${label}: ${JSON.stringify(requests[label])}`);
    return result;
  }

  async function seedFleet(): Promise<string[]> {
    const serials = serialNumbers(FLEET_SIZE);
    const ids: string[] = [];
    for (let start = 0; start < serials.length; start += 50) {
      const batch = serials.slice(start, start + 50);
      const seeded = await Promise.all(
        batch.map((sn, i) => control.seedDevice({ sn, name: `fleet-${start + i}` })),
      );
      ids.push(...seeded.map((d) => d.deviceId));
    }
    return ids;
  }

  /** The task ids the DeviceConfig recorded in its outputs. */
  async function recordedTaskIds(): Promise<string[]> {
    const [config] = resourcesOfType(await project.exportStack(), DEVICE_CONFIG);
    return Object.values((config?.outputs?.taskIds ?? {}) as Record<string, string>);
  }

  /** Waits until every task the DeviceConfig recorded has run. */
  async function tasksFinished(): Promise<void> {
    const recorded = new Set(await recordedTaskIds());
    expect(recorded.size).toBe(FLEET_SIZE);
    await expect
      .poll(
        async () => {
          const tasks = (await control.tasks()).filter((t) => recorded.has(t.taskId));
          return tasks.length === FLEET_SIZE && tasks.every((t) => t.status === "SUCCEEDED");
        },
        { timeout: 60_000, interval: 500 },
      )
      .toBe(true);
  }

  async function fleetProperties() {
    const fleet = new Set(deviceIds);
    return (await control.state()).devices.filter((d) => fleet.has(d.deviceId)).map((d) => d.properties);
  }

  beforeAll(async () => {
    control = new EmulatorControl(e2e().emulatorUrl);
    deviceIds = await seedFleet();
    project = await createProject({
      name: "config-fleet",
      program: fleetConfigProgram(CONFIG),
      files: deviceIdsFile(deviceIds),
    });
  });

  it("previews the rollout reading each device's TSL model once, writing nothing", async () => {
    const preview = assertOk(await counted("preview of the rollout", () => project.preview()));
    expect(preview.changes).toEqual({ create: 2 });
    const { byRoute } = requests["preview of the rollout"] as CounterSnapshot;
    expect(byRoute["GET /devices/{deviceId}/thing-specification"]).toBe(FLEET_SIZE);
    expect(writes(byRoute)).toBe(0);
  });

  it("rolls the configuration out with exactly 3 task calls", async () => {
    const up = assertOk(await counted("up (rollout)", () => project.up()));
    expect(up.changes).toEqual({ create: 2 });
    const { byRoute } = requests["up (rollout)"] as CounterSnapshot;
    expect(byRoute["POST /tasks"]).toBe(3);
    expect(writes(byRoute)).toBe(3);
    const [config] = resourcesOfType(await project.exportStack(), DEVICE_CONFIG);
    expect(config?.outputs?.method).toBe("tasks");
    expect(Object.keys(config?.outputs?.taskIds as object).sort()).toEqual([...deviceIds].sort());
    await tasksFinished();
    for (const properties of await fleetProperties()) {
      expect(properties).toMatchObject({ reportInterval: 1800, ledEnabled: false });
    }
  });

  it("previews no changes without a single request", async () => {
    const preview = assertOk(
      await counted("preview, no changes", () => project.preview({ expectNoChanges: true })),
    );
    expect(preview.changes).toEqual({ same: 2 });
    expect(requests["preview, no changes"]?.total).toBe(0);
  });

  it("refreshes reading each device's configuration once, finding no drift", async () => {
    const refresh = assertOk(await counted("refresh, no drift", () => project.refresh()));
    expect(refresh.changes).toEqual({ same: 2 });
    expect(requests["refresh, no drift"]?.byRoute["GET /devices/{deviceId}/config"]).toBe(FLEET_SIZE);
  });

  it("finds drift on one device on refresh and corrects it on up", async () => {
    const drifted = deviceIds[700] as string;
    await control.changeDevice(drifted, { properties: { reportInterval: 60 } });
    const refresh = assertOk(await counted("refresh with drift on one device", () => project.refresh()));
    expect(refresh.changes).toMatchObject({ update: 1 });
    const [config] = resourcesOfType(await project.exportStack(), DEVICE_CONFIG);
    expect(config?.inputs?.properties).toEqual({ reportInterval: 60, ledEnabled: false });

    const before = new Set(await recordedTaskIds());
    const up = assertOk(await counted("up (correct drift)", () => project.up()));
    expect(up.changes).toMatchObject({ update: 1 });
    // The devices are read first: only the one that drifted lacks the value, so one task for it.
    expect(requests["up (correct drift)"]?.byRoute["POST /tasks"]).toBe(1);
    const after = await recordedTaskIds();
    expect(after.filter((taskId) => !before.has(taskId))).toHaveLength(1);
    await tasksFinished();
    const device = (await control.state()).devices.find((d) => d.deviceId === drifted);
    expect(device?.properties.reportInterval).toBe(1800);
    assertOk(await project.preview({ expectNoChanges: true }));
  });

  it("leaves the devices configured on destroy without resetOnDelete, with no write", async () => {
    const stateBytes = project.stateFileText().length;
    assertOk(await counted("destroy", () => project.destroy()));
    // One token request: a destroy must not succeed against a server that is not the platform.
    expect(requests.destroy?.byRoute).toEqual({ "POST /oauth/token": 1 });
    for (const properties of await fleetProperties()) expect(properties.reportInterval).toBe(1800);
    console.log(
      `DeviceConfig of ${FLEET_SIZE} devices: state file ${stateBytes} bytes; requests per step:`,
      JSON.stringify(
        Object.fromEntries(Object.entries(requests).map(([step, c]) => [step, c.byRoute])),
        null,
        2,
      ),
    );
  });
});
