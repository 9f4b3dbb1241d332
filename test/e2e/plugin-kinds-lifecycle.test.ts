/**
 * All four kinds on the provider plugin, declared as `pulumi.CustomResource`s with their type
 * tokens through the installed launcher: create → clean preview → out-of-band changes on the
 * platform → refresh records them → update puts the declaration back → clean preview → destroy,
 * with the platform requests of each step counted exactly.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { EmulatorControl } from "../../emulator";
import { DevicePlatformClient } from "../../sdk";
import { serialNumbers } from "./support/fleet-programs";
import { writesOf } from "./support/platform-writes";
import { createPluginProject, pluginProgram } from "./support/plugin-programs";
import { assertOk, E2E_CREDENTIALS, resourcesOfType, type StackExport } from "./support/pulumi-project";
import { e2e } from "./support/e2e-context";

const TYPE = (kind: string) => `devplatform:index:${kind}`;

function one(stack: StackExport, kind: string) {
  const [resource] = resourcesOfType(stack, TYPE(kind));
  if (!resource) throw new Error(`no ${kind} in the stack`);
  return resource;
}

describe("the four kinds on the provider plugin", () => {
  let control: EmulatorControl;
  let client: DevicePlatformClient;

  beforeAll(() => {
    const { emulatorUrl } = e2e();
    control = new EmulatorControl(emulatorUrl);
    client = new DevicePlatformClient({ baseUrl: emulatorUrl, ...E2E_CREDENTIALS, maxRetries: 2 });
  });

  it("create, clean preview, out-of-band change, refresh, update, destroy", async () => {
    const [snDevice, snFleet0, snFleet1, snRps] = serialNumbers(4) as [string, string, string, string];
    const program = pluginProgram([
      {
        kind: "Device",
        name: "device",
        props: { sn: snDevice, name: "plugin-device" },
        outputs: ["deviceId"],
      },
      {
        kind: "DeviceFleet",
        name: "fleet",
        props: {
          devices: [
            { sn: snFleet0, name: "plugin-fleet-0", tags: ["plugin"] },
            { sn: snFleet1, name: "plugin-fleet-1" },
          ],
        },
        outputs: ["deviceIds"],
      },
      {
        kind: "RpsProfile",
        name: "rps",
        props: { sn: snRps, profileUrl: "https://rps.example.com/declared" },
      },
      {
        kind: "DeviceConfig",
        name: "config",
        props: { properties: { reportInterval: 900 } },
        computed: "{ deviceIds: r0.deviceId }",
        outputs: ["method"],
      },
    ]);
    const project = await createPluginProject({ name: "plugin-kinds", program });
    const counted = async <T>(step: () => Promise<T>) => {
      await control.resetCounters();
      const result = await step();
      return { result, counts: await control.counters() };
    };

    const created = await counted(() => project.up().then(assertOk));
    expect(created.result.changes).toMatchObject({ create: 5 });
    // The implementations' messages reach the engine's Log on the resource's own row.
    const fleetUrn = created.result.steps.find((s) => s.type === TYPE("DeviceFleet"))?.urn;
    expect(
      created.result.diagnostics.filter(
        (d) => d.urn === fleetUrn && /^DeviceFleet fleet: 2 to add/.test(d.message),
      ),
    ).not.toEqual([]);
    const stack = await project.exportStack();
    const deviceId = one(stack, "Device").id as string;
    const fleetIds = one(stack, "DeviceFleet").outputs?.deviceIds as Record<string, string>;
    expect(Object.keys(fleetIds).sort()).toEqual([snFleet0, snFleet1].sort());
    expect(one(stack, "RpsProfile").id).toBe(snRps);
    expect(one(stack, "DeviceConfig").outputs?.method).toBe("patch");

    const previewed = await counted(() => project.preview({ expectNoChanges: true }).then(assertOk));

    // Out of band: renamed devices, another profile URL, another property value.
    await control.changeDevice(deviceId, { name: "renamed-elsewhere", properties: { reportInterval: 1200 } });
    await control.changeDevice(fleetIds[snFleet0] as string, { name: "fleet-renamed-elsewhere" });
    await client.setRpsProfile({ sn: snRps, profileUrl: "https://rps.example.com/elsewhere" });

    const refreshed = await counted(() => project.refresh().then(assertOk));
    expect(writesOf(refreshed.counts.byRoute)).toEqual({});
    const afterRefresh = await project.exportStack();
    expect(one(afterRefresh, "Device").outputs?.name).toBe("renamed-elsewhere");
    expect(one(afterRefresh, "Device").inputs?.name).toBe("renamed-elsewhere");
    expect(one(afterRefresh, "RpsProfile").outputs?.profileUrl).toBe("https://rps.example.com/elsewhere");
    expect(one(afterRefresh, "DeviceConfig").outputs?.properties).toEqual({ reportInterval: 1200 });
    const fleetEntries = one(afterRefresh, "DeviceFleet").inputs?.devices as Record<string, { name: string }>;
    expect(fleetEntries[snFleet0]?.name).toBe("fleet-renamed-elsewhere");

    const updated = await counted(() => project.up().then(assertOk));
    expect(updated.result.changes).toMatchObject({ update: 4 });
    const platform = await control.state();
    const named = (sn: string) => platform.devices.find((d) => d.sn === sn)?.name;
    expect([named(snDevice), named(snFleet0), named(snFleet1)]).toEqual([
      "plugin-device",
      "plugin-fleet-0",
      "plugin-fleet-1",
    ]);
    const records = (await client.searchRpsProfiles({ pageSize: 100 })).content;
    expect(records.find((r) => r.sn === snRps)?.profileUrl).toBe("https://rps.example.com/declared");
    const cleanAgain = await counted(() => project.preview({ expectNoChanges: true }).then(assertOk));

    const destroyed = await counted(() => project.destroy().then(assertOk));
    expect(destroyed.result.changes).toMatchObject({ delete: 5 });
    const left = (await control.state()).devices.filter((d) => [snDevice, snFleet0, snFleet1].includes(d.sn));
    expect(left).toEqual([]);

    // One provider process per command, one token; nothing at a clean preview.
    expect(created.counts.byRoute).toEqual({
      "POST /oauth/token": 1,
      "POST /devices/search": 3,
      "POST /devices": 3,
      "GET /devices/{deviceId}": 3,
      "POST /rps/search": 1,
      "POST /rps/profile": 1,
      "GET /devices/{deviceId}/thing-specification": 1,
      "GET /devices/{deviceId}/config": 1,
      "PATCH /devices/{deviceId}/properties": 1,
    });
    expect(previewed.counts.total).toBe(0);
    expect(refreshed.counts.byRoute).toEqual({
      "POST /oauth/token": 1,
      "GET /devices/{deviceId}": 3,
      "POST /rps/search": 1,
      "GET /devices/{deviceId}/config": 1,
    });
    expect(updated.counts.byRoute).toEqual({
      "POST /oauth/token": 1,
      "PUT /devices": 2,
      "GET /devices/{deviceId}": 1,
      "POST /rps/profile": 1,
      "GET /devices/{deviceId}/thing-specification": 1,
      "GET /devices/{deviceId}/config": 1,
      "PATCH /devices/{deviceId}/properties": 1,
    });
    expect(cleanAgain.counts.total).toBe(0);
    expect(destroyed.counts.byRoute).toEqual({
      "POST /oauth/token": 1,
      "GET /devices/{deviceId}": 3,
      "DELETE /devices/{deviceId}": 3,
      "DELETE /rps/{sn}": 1,
    });
    const figures = { created, previewed, refreshed, updated, cleanAgain, destroyed };
    console.log(
      Object.entries(figures)
        .map(([step, { counts }]) => `${step}: ${counts.total} ${JSON.stringify(counts.byRoute)}`)
        .join("\n"),
    );
  });
});
