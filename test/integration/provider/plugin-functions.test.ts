/**
 * The package's functions against a real emulator: typed results (ids as strings of digits), the
 * search filters, and bad arguments refused before any request, naming the argument and the rule.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { FunctionArgumentError } from "../../../provider/functions/arguments";
import { FUNCTIONS as pluginFunctions } from "../../../provider/kinds";
import { serialNumbers } from "../../e2e/support/fleet-programs";
import { useConfiguredEmulator } from "./support/configured-emulator";

const env = useConfiguredEmulator();

beforeEach(async () => {
  await env.emulator.control.resetCounters();
});

function call(name: string, args: Record<string, unknown>) {
  const fn = pluginFunctions[name];
  if (!fn) throw new Error(`no function ${name}`);
  return fn.invoke(args);
}

/** The failures of a call refused for its arguments, and that it sent no request. */
async function refused(name: string, args: Record<string, unknown>): Promise<string[]> {
  await env.emulator.control.resetCounters();
  const error = await call(name, args).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(FunctionArgumentError);
  expect((await env.emulator.control.counters()).total).toBe(0);
  return (error as FunctionArgumentError).failures.map((f) => f.reason);
}

describe("getDevice", () => {
  it("answers a device by deviceId and by serial number (any case), with the Device's output names", async () => {
    const [sn] = serialNumbers(1);
    const seeded = await env.emulator.control.seedDevice({ sn: sn as string, name: "lobby", tag: ["x"] });
    const byId = await call("getDevice", { deviceId: seeded.deviceId });
    expect(byId).toMatchObject({ deviceId: seeded.deviceId, sn, name: "lobby", tags: ["x"] });
    expect(byId.deviceId).toMatch(/^\d+$/);
    expect(await call("getDevice", { sn: (sn as string).toLowerCase() })).toEqual(byId);
  });

  it("refuses no argument, both, a bad deviceId, an unknown argument; fails for a device not there", async () => {
    expect(await refused("getDevice", {})).toEqual([
      "getDevice: argument deviceId or sn is required: give exactly one of them (got 0)",
    ]);
    expect(await refused("getDevice", { deviceId: "1", sn: "240000A10001" })).toEqual([
      "getDevice: argument deviceId or sn is required: give exactly one of them (got 2)",
    ]);
    expect(await refused("getDevice", { deviceId: "12ab", snn: "x" })).toEqual([
      "getDevice: argument snn is not an argument of getDevice; expected one of: deviceId, sn",
      'getDevice: argument deviceId must be a deviceId, a string of digits, got "12ab"',
    ]);
    await expect(call("getDevice", { sn: "FFFF00000000FFFF" })).rejects.toThrow(
      "getDevice: no device with sn FFFF00000000FFFF in this application",
    );
  });
});

describe("getDevices", () => {
  it("answers the devices matching the search filters and a project, with deviceIds by serial number", async () => {
    const project = `p-${serialNumbers(1)[0]}`;
    const sns = serialNumbers(3);
    const { devices } = await env.emulator.control.seed({
      devices: [
        { sn: sns[0] as string, name: "a", project, tag: ["t1"] },
        { sn: sns[1] as string, name: "b", project, tag: ["t2"] },
        { sn: sns[2] as string, name: "c", project: "other", tag: ["t1"] },
      ],
    });
    const result = await call("getDevices", { project, sorts: [{ property: "deviceId", direction: "asc" }] });
    expect((result.devices as { sn: string }[]).map((d) => d.sn)).toEqual([sns[0], sns[1]]);
    expect(result.deviceIds).toEqual({
      [sns[0] as string]: devices[0]?.deviceId,
      [sns[1] as string]: devices[1]?.deviceId,
    });
    const tagged = await call("getDevices", { project, tags: ["t2"] });
    expect((tagged.devices as { name: string }[]).map((d) => d.name)).toEqual(["b"]);
  });

  it("refuses a value outside a closed filter, a bad sort, a negative electricity, naming each", async () => {
    expect(
      await refused("getDevices", {
        connectStatus: ["ONLINE", "ASLEEP"],
        sorts: [{ property: "name", direction: "up" }],
        electricityMin: -1,
      }),
    ).toEqual([
      'getDevices: argument connectStatus[1] must be one of ONLINE, OFFLINE, DISCONNECT, got "ASLEEP"',
      "getDevices: argument electricityMin must be a whole number of at least 0, got -1",
      'getDevices: argument sorts[0].direction must be "asc" or "desc", got "up"',
    ]);
  });
});

describe("getThingModel", () => {
  it("answers a device's TSL model: its properties with access modes, events and services", async () => {
    const [sn] = serialNumbers(1);
    const seeded = await env.emulator.control.seedDevice({ sn: sn as string, name: "model" });
    const model = await call("getThingModel", { deviceId: seeded.deviceId });
    expect(model.deviceId).toBe(seeded.deviceId);
    const properties = model.properties as { id: string; accessMode?: string }[];
    expect(properties.find((p) => p.id === "reportInterval")?.accessMode).toBe("RW");
    expect(Array.isArray(model.events)).toBe(true);
    expect(Array.isArray(model.services)).toBe(true);
    expect(await refused("getThingModel", {})).toEqual(["getThingModel: argument deviceId is required"]);
  });
});

describe("getRpsProfiles", () => {
  it("answers the application's records, or one serial number's", async () => {
    const sns = serialNumbers(2, "AC");
    await env.emulator.control.seed({
      rpsRecords: sns.map((sn, i) => ({ sn, profileUrl: `https://rps.example/p/${i}` })),
    });
    const all = await call("getRpsProfiles", { sorts: [{ property: "sn", direction: "asc" }] });
    expect(all.profileUrls).toMatchObject({
      [sns[0] as string]: "https://rps.example/p/0",
      [sns[1] as string]: "https://rps.example/p/1",
    });
    const one = await call("getRpsProfiles", { sn: (sns[1] as string).toLowerCase() });
    expect(one).toEqual({
      profiles: [{ sn: sns[1], profileUrl: "https://rps.example/p/1" }],
      profileUrls: { [sns[1] as string]: "https://rps.example/p/1" },
    });
    expect(await refused("getRpsProfiles", { sn: "xyz" })).toEqual([
      'getRpsProfiles: argument sn must be 12 to 16 hex digits, got "xyz"',
    ]);
  });
});
