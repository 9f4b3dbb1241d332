/**
 * The plugin's import reads of every kind against a real emulator: what `pulumi import` reads from
 * the id alone passes the kind's check, and the next diff is empty (changes=false) — the imported
 * resource's next preview changes nothing. Request counts come from the emulator's counters.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { KINDS as kindExtensions } from "../../../provider/kinds";
import { providerImplementation } from "../../../provider/dynamic/implementations";
import type { ResourceKind } from "../../../provider/kinds";
import type { Inputs } from "../../../provider/shared/input-checks";
import { resetPropertyOwnership } from "../../../provider/guardrails/property-ownership";
import { forgetThingModels } from "../../../provider/tsl/models";
import { serialNumbers } from "../../e2e/support/fleet-programs";
import { useConfiguredEmulator } from "./support/configured-emulator";

const env = useConfiguredEmulator();

beforeEach(async () => {
  forgetThingModels();
  // Each test imports as a deployment of its own: the one-owner claims on properties start empty.
  resetPropertyOwnership();
  await env.emulator.control.resetCounters();
});

/**
 * importRead → check → diff, as the engine runs an import (its Check's olds are the read inputs) and
 * the preview after it; `reads` are the requests of the import read alone.
 */
async function importThenPreview(kind: ResourceKind, id: string, extra: Inputs = {}) {
  await env.emulator.control.resetCounters();
  const imported = await kindExtensions[kind].importRead(id, extra.fleetName as string | undefined);
  const reads = await requests();
  const news = { ...imported.inputs, ...extra };
  const { inputs, failures } = await providerImplementation(kind).check(news, news);
  expect(failures).toEqual([]);
  const diff = await kindExtensions[kind].diff(imported.id, imported.outputs, inputs ?? {});
  return { imported, inputs: inputs ?? {}, diff, reads };
}

async function requests(): Promise<Record<string, number>> {
  const { byRoute } = await env.emulator.control.counters();
  return Object.fromEntries(Object.entries(byRoute).filter(([route]) => !route.includes("oauth")));
}

describe("import of a Device by deviceId", () => {
  it("declares the device as the platform has it: check passes, the next diff is empty, one GET", async () => {
    const [sn] = serialNumbers(1);
    const seeded = await env.emulator.control.seedDevice({
      sn: sn as string,
      name: "lobby",
      description: "by the door",
      project: "building-a",
      tag: ["x", "y"],
    });
    const { imported, diff, reads } = await importThenPreview("Device", seeded.deviceId);
    expect(imported.id).toBe(seeded.deviceId);
    expect(imported.inputs).toEqual({
      sn,
      name: "lobby",
      description: "by the door",
      project: "building-a",
      tags: ["x", "y"],
    });
    expect(imported.outputs).toMatchObject({ deviceId: seeded.deviceId, sn, name: "lobby" });
    expect(diff.changes).toBe(false);
    expect(reads).toEqual({ "GET /devices/{deviceId}": 1 });
  });

  it("refuses an id that is not a deviceId, and a device that is not there, naming them", async () => {
    await expect(kindExtensions.Device.importRead("lobby")).rejects.toThrow(
      'import Device deviceId=lobby failed: the import id must be a deviceId, a string of digits, got "lobby"',
    );
    await expect(kindExtensions.Device.importRead("99999999")).rejects.toThrow(
      /import Device deviceId=99999999 failed: no such device in this application/,
    );
  });
});

describe("import of an RpsProfile by serial number", () => {
  it("declares the record's URL: check passes and the next diff is empty", async () => {
    const [sn] = serialNumbers(1, "AC");
    await env.emulator.control.seed({
      rpsRecords: [{ sn: sn as string, profileUrl: "https://rps.example/p/1" }],
    });
    const { imported, diff } = await importThenPreview("RpsProfile", sn as string);
    expect(imported).toEqual({
      id: sn,
      inputs: { sn, profileUrl: "https://rps.example/p/1" },
      outputs: { sn, profileUrl: "https://rps.example/p/1" },
    });
    expect(diff.changes).toBe(false);
  });

  it("fails for a serial number without a record, saying so", async () => {
    const [sn] = serialNumbers(1, "AD");
    await expect(kindExtensions.RpsProfile.importRead(sn as string)).rejects.toThrow(
      `import RpsProfile sn=${sn} failed: the application has no RPS record for ${sn}`,
    );
  });
});

describe("import of a DeviceConfig by deviceIds and property ids", () => {
  it("declares the devices' current values of the named properties: check passes, next diff empty", async () => {
    const sns = serialNumbers(2);
    const { devices } = await env.emulator.control.seed({
      devices: sns.map((sn, i) => ({
        sn,
        name: `cfg-${i}`,
        properties: {
          reportInterval: 900,
          alarmThreshold: { "alarmThreshold.high": 40, "alarmThreshold.low": 5 },
        },
      })),
    });
    const ids = devices.map((d) => d.deviceId);
    const { imported, inputs, diff } = await importThenPreview(
      "DeviceConfig",
      `${ids.join(",")}:reportInterval,alarmThreshold`,
    );
    expect(imported.inputs).toMatchObject({ deviceIds: ids, properties: { reportInterval: 900 } });
    expect(inputs.deviceIds).toEqual(ids);
    expect(imported.outputs).toMatchObject({ method: "tasks", taskIds: {} });
    expect(diff.changes).toBe(false);
    // The values fit each device's TSL model too (a check with no earlier inputs validates them).
    expect((await providerImplementation("DeviceConfig").check({}, imported.inputs)).failures).toEqual([]);
    // One device: written by PATCH, and its id is the deviceId (another `pulumi import`, another
    // deployment: within one, two DeviceConfigs setting one property of one device are refused).
    resetPropertyOwnership();
    const one = await importThenPreview("DeviceConfig", `${ids[0]}:reportInterval`);
    expect(one.imported.id).toBe(ids[0]);
    expect(one.imported.outputs).toMatchObject({ method: "patch", properties: { reportInterval: 900 } });
    expect(one.diff.changes).toBe(false);
  });

  it("refuses a malformed id, an unknown property, and values that differ between devices", async () => {
    await expect(kindExtensions.DeviceConfig.importRead("12345")).rejects.toThrow(
      /the import id names no device or no property; it is `<deviceId>\[,<deviceId>…\]:<propertyId>/,
    );
    await expect(kindExtensions.DeviceConfig.importRead("12a:reportInterval")).rejects.toThrow(
      /has a deviceId that is not a string of digits \("12a"\)/,
    );
    const sns = serialNumbers(2);
    const { devices } = await env.emulator.control.seed({
      devices: sns.map((sn, i) => ({ sn, name: `d-${i}`, properties: { reportInterval: 600 + i } })),
    });
    const [a, b] = devices.map((d) => d.deviceId);
    await expect(kindExtensions.DeviceConfig.importRead(`${a},${b}:reportInterval`)).rejects.toThrow(
      `property reportInterval is 600 on device ${a} but 601 on device ${b}; import them as separate DeviceConfigs`,
    );
    await expect(kindExtensions.DeviceConfig.importRead(`${a}:noSuchProperty`)).rejects.toThrow(
      `property noSuchProperty is not in the configuration the platform reports for device ${a}`,
    );
  });
});

describe("import of a DeviceFleet by a project filter", () => {
  it("makes every device of the project an entry: check passes, next diff empty, ⌈N/100⌉ searches", async () => {
    const project = `building-${serialNumbers(1)[0]}`;
    const sns = serialNumbers(150);
    await env.emulator.control.seed({
      devices: [
        ...sns.map((sn, i) => ({ sn, name: `fleet-${i}`, project, tag: i % 2 ? ["odd"] : undefined })),
        ...serialNumbers(3).map((sn, i) => ({ sn, name: `other-${i}`, project: "elsewhere" })),
      ],
    });
    const total = (await env.emulator.control.state()).devices.length;
    const { imported, inputs, diff, reads } = await importThenPreview("DeviceFleet", `project=${project}`, {
      fleetName: "site-a",
    });
    expect(imported.id).toBe("site-a");
    expect((imported.inputs.devices as { sn: string }[]).map((d) => d.sn).sort()).toEqual([...sns].sort());
    expect(Object.keys(inputs.entries as object)).toHaveLength(150);
    expect(Object.keys(imported.outputs.deviceIds as object)).toHaveLength(150);
    expect(diff.changes).toBe(false);
    expect(diff.detailedDiff).toEqual({});
    expect(reads).toEqual({ "POST /devices/search": Math.ceil(total / 100) });
    // What a refresh records as the inputs: the same declaration.
    const { entries, ...settings } = inputs;
    expect(kindExtensions.DeviceFleet.inputsOf(imported.outputs)).toEqual({ ...settings, devices: entries });
  });

  it("refuses a filter it does not know, naming the syntax", async () => {
    await expect(kindExtensions.DeviceFleet.importRead("site=a", "f")).rejects.toThrow(
      'import DeviceFleet site=a failed: the import id must be `project=<project>` or `projects=<a>,<b>,…`, got "site=a"',
    );
  });
});
