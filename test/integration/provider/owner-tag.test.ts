/**
 * The owner tag against a real emulator on loopback, with the provider objects called as a
 * deployment of stack `fleet/site-a` calls them (the URN that both front-ends note for each
 * request): what adds and adopts write, what an adoption, a delete and a `resetOnDelete` do when
 * another stack's tag is on the device. (Across two real stacks on the real CLI:
 * test/e2e/owner-tag-across-stacks.test.ts.)
 */
import { beforeEach, describe, expect, it } from "vitest";
import { deviceImplementation as device } from "../../../provider/device/provider";
import { deviceConfigImplementation as config } from "../../../provider/device-config/provider";
import { withLogSink, type LogSink } from "../../../provider/output/log";
import { resetPropertyOwnership } from "../../../provider/guardrails/property-ownership";
import { resetOwnership } from "../../../provider/guardrails/ownership";
import { withRequestUrn } from "../../../provider/deployment/request-urn";
import { stackInstance } from "../../../provider/deployment/stack-instance";
import { markerOf } from "../../../provider/shared/owner-marker";
import { forgetThingModels } from "../../../provider/tsl/models";
import { serialNumbers } from "../../e2e/support/fleet-programs";
import type { ImportedResource } from "../../../provider/core/kind";
import { useConfiguredEmulator } from "./support/configured-emulator";

const env = useConfiguredEmulator({ taskDelayMs: 10 });
// The instance is the backend's (none in these tests' environment, or this machine's login).
const MINE = markerOf("fleet/site-a", "pulumi-stack:", stackInstance());
const THEIRS = "pulumi-stack:fleet/site-b@b4ckend2";

beforeEach(() => forgetThingModels());

/** Runs `work` as a call of stack `fleet/site-a` about resource `name`, collecting its warnings. */
async function asSiteA<T>(
  name: string,
  work: () => Promise<T>,
): Promise<{ result: T; warnings: string[]; infos: string[] }> {
  const warnings: string[] = [];
  const infos: string[] = [];
  const sink: LogSink = {
    info: async (message) => void infos.push(message),
    warn: async (message) => void warnings.push(message),
    status: async () => undefined,
  };
  const urn = `urn:pulumi:site-a::fleet::devplatform:index:Device::${name}`;
  const result = await withRequestUrn(urn, () => withLogSink(sink, work));
  return { result, warnings, infos };
}

async function counted<T>(body: () => Promise<T>): Promise<{ result: T; writes: Record<string, number> }> {
  await env.emulator.control.resetCounters();
  const result = await body();
  const { byRoute } = await env.emulator.control.counters();
  const writes = Object.fromEntries(
    Object.entries(byRoute).filter(
      ([route]) => /^(POST|PUT|PATCH|DELETE) /.test(route) && !route.includes("search"),
    ),
  );
  return { result, writes };
}

async function tagOf(deviceId: string): Promise<string[] | undefined> {
  return (await env.emulator.control.state()).devices.find((d) => d.deviceId === deviceId)?.tag;
}

describe("a Device in a deployment", () => {
  it("is added with this stack's owner tag after its declared tags, and records it", async () => {
    const [sn] = serialNumbers(1) as [string];
    const { result } = await asSiteA("a", () => device.create({ sn, name: "a", tags: ["lobby"] }));
    expect(await tagOf(result.id)).toEqual(["lobby", MINE]);
    expect(result.outs).toMatchObject({ tags: ["lobby"], ownerMarker: MINE });
  });

  it("refuses to adopt a device another stack's tag names, writing nothing; takeOver takes it", async () => {
    const [sn] = serialNumbers(1) as [string];
    const seeded = await env.emulator.control.seedDevice({ sn, name: "b", tag: ["lobby", THEIRS] });
    const refused = await counted(() =>
      asSiteA("b", () => device.create({ sn, name: "b", tags: ["lobby"] })).catch((e: Error) => e),
    );
    expect(refused.result).toBeInstanceOf(Error);
    expect((refused.result as Error).message).toMatch(
      new RegExp(`deviceId ${seeded.deviceId} with this serial number is managed by stack "fleet/site-b"`),
    );
    expect(refused.writes).toEqual({});
    const taken = await counted(() =>
      asSiteA("b", () => device.create({ sn, name: "b", tags: ["lobby"], takeOver: true })),
    );
    expect(taken.writes).toEqual({ "PUT /devices": 1 });
    expect(await tagOf(seeded.deviceId)).toEqual(["lobby", MINE]);
  });

  it("adopts a device without any owner tag with one PUT that gives it this stack's", async () => {
    const [sn] = serialNumbers(1) as [string];
    const seeded = await env.emulator.control.seedDevice({ sn, name: "c" });
    const adopted = await counted(() => asSiteA("c", () => device.create({ sn, name: "c" })));
    expect(adopted.writes).toEqual({ "PUT /devices": 1 });
    expect(await tagOf(seeded.deviceId)).toEqual([MINE]);
  });

  it("deletes nothing when another stack's tag is on the device, and says so", async () => {
    const [sn] = serialNumbers(1) as [string];
    const { result } = await asSiteA("d", () => device.create({ sn, name: "d" }));
    await env.emulator.control.changeDevice(result.id, { tag: [THEIRS] });
    // The delete comes in a later deployment: the one-owner record of this one is gone by then.
    resetOwnership();
    const deleted = await counted(() => asSiteA("d", () => device.delete(result.id, result.outs)));
    expect(deleted.writes).toEqual({});
    expect(deleted.result.warnings).toEqual([
      `Device sn=${sn}: not deleting deviceId ${result.id}: stack "fleet/site-b" manages it now (its owner tag ` +
        "says so); it stays on the platform and leaves this stack's state",
    ]);
    expect(await tagOf(result.id)).toEqual([THEIRS]);
  });
});

describe("a Device imported by `pulumi import` in a deployment", () => {
  /** Import, refresh (read, then the engine's diff), and the `up` keeping it declared, as site-a. */
  async function importThenUp(sn: string, tag: string[]) {
    const seeded = await env.emulator.control.seedDevice({ sn, name: "i", tag });
    const imported = await asSiteA(
      "i",
      () => device.importRead?.(seeded.deviceId) as Promise<ImportedResource>,
    );
    const state = imported.result.outputs;
    const refreshed = await asSiteA("i", async () => {
      const read = await device.read(seeded.deviceId, state);
      await device.diff(seeded.deviceId, read.props, read.inputs ?? {});
      return read;
    });
    const inputs = imported.result.inputs;
    const up = await counted(() =>
      asSiteA("i", () => device.update(seeded.deviceId, refreshed.result.props, inputs)).catch(
        (e: Error) => e,
      ),
    );
    return { seeded, imported, refreshed, up };
  }

  it("carrying another stack's tag: import and refresh say the up refuses it, and it does, writing nothing", async () => {
    const [sn] = serialNumbers(1) as [string];
    const { seeded, imported, refreshed, up } = await importThenUp(sn, ["lobby", THEIRS]);
    const said = `Device sn=${sn}: deviceId ${seeded.deviceId} is managed by stack "fleet/site-b" (its owner tag says so)`;
    expect(imported.warnings).toEqual([expect.stringContaining(said)]);
    expect(refreshed.warnings).toEqual([expect.stringContaining(said)]);
    expect(refreshed.warnings[0]).toMatch(/not give it this stack's owner tag.*takeOver: true/);
    // The diff (no read: it cannot know the tag) gives this stack's tag only to a device no other stack's names.
    expect(refreshed.infos.join("\n")).toMatch(
      /will be given .*, unless another stack's owner tag is on it: that device is refused/,
    );
    expect(up.result).toBeInstanceOf(Error);
    expect((up.result as Error).message).toMatch(/managed by stack "fleet\/site-b".*nothing was written/);
    expect(up.writes).toEqual({});
    expect(await tagOf(seeded.deviceId)).toEqual(["lobby", THEIRS]);
  });

  it("carrying no owner tag: refresh says the up gives it this stack's, and it does, with one PUT", async () => {
    const [sn] = serialNumbers(1) as [string];
    const { seeded, imported, refreshed, up } = await importThenUp(sn, ["lobby"]);
    expect(imported.warnings).toEqual([]);
    expect(refreshed.warnings).toEqual([]);
    expect(refreshed.infos.join("\n")).toMatch(
      new RegExp(`Device sn=${sn}: 1 device .*will be given "${MINE}"`),
    );
    expect(up.writes).toEqual({ "PUT /devices": 1 });
    expect(await tagOf(seeded.deviceId)).toEqual(["lobby", MINE]);
  });
});

describe("a DeviceConfig with resetOnDelete in a deployment", () => {
  it("resets nothing on a device another stack's tag names", async () => {
    const [sn] = serialNumbers(1) as [string];
    const { result: added } = await asSiteA("e", () => device.create({ sn, name: "e" }));
    const inputs = { deviceIds: [added.id], properties: { reportInterval: 900 }, resetOnDelete: true };
    const { result } = await asSiteA("cfg", () => config.create(inputs));
    await env.emulator.control.changeDevice(added.id, { tag: [THEIRS] });
    // The delete comes in a later deployment: the one-owner record of this one is gone by then.
    resetPropertyOwnership();
    const deleted = await counted(() => asSiteA("cfg", () => config.delete(result.id, result.outs)));
    expect(deleted.writes).toEqual({});
    expect(deleted.result.warnings).toEqual([
      `DeviceConfig ${result.id}: resetOnDelete leaves device(s) ${added.id} as they are: stack "fleet/site-b" ` +
        "manages them now (their owner tag says so)",
    ]);
  });
});
