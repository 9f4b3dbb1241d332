/**
 * A DeviceFleet meeting the plan's daily request quota, against the emulator (`dailyQuota`): the
 * preview's figure equals the requests the `up` makes (the emulator's own count of the day's use);
 * when the quota runs out mid-way the `up` stops at once — no retry, no further request — and records
 * what it did as partial success, saying how many requests remain; the next day's `up` converges
 * with the figure the stopped `up` gave, and every device is on the platform once.
 */
import * as pulumi from "@pulumi/pulumi";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { DEFAULT_APPLICATION_ID } from "../../../emulator";
// The dynamic front-end, which sends messages outside an operation to @pulumi/pulumi's log.
import "../../../provider/dynamic/implementations";
import { deviceFleetImplementation as fleet } from "../../../provider/device-fleet/provider";
import { startNewDeployment } from "../../../provider/platform-access/platform-client";
import { PartialSuccessError } from "../../../provider/shared/errors";
import { serialNumbers } from "../../e2e/support/fleet-programs";
import { useConfiguredEmulator } from "./support/configured-emulator";
import { applyFleet, checkFleet, upFleet, type Deployed, type Entry } from "./support/fleet-up";
import { resetOwnership } from "../../../provider/guardrails/ownership";

const env = useConfiguredEmulator({ dailyQuota: 1_000 });

beforeEach(async () => {
  await env.emulator.control.reset();
  await startNewDeployment();
});
afterEach(() => vi.restoreAllMocks());

function entries(count: number, extra: Partial<Entry> = {}): Entry[] {
  return serialNumbers(count, "24").map((sn, i) => ({ sn, name: `q-${i}`, tags: ["quota"], ...extra }));
}

async function used(): Promise<number> {
  return (await env.emulator.control.quota()).applications[DEFAULT_APPLICATION_ID]?.used ?? 0;
}

/** The figure the fleet's plan message gives, from the `pulumi.log.info` it printed. */
function figureIn(messages: string[]): number {
  const found = messages.map((m) => /its `up` makes ([\d,]+) requests?/.exec(m)?.[1]).find(Boolean);
  if (found === undefined) throw new Error(`no figure in: ${messages.join("\n")}`);
  return Number(found.replace(/,/g, ""));
}

/** The messages `pulumi.log.info` prints from now on (read it after the step). */
function infoMessages(): () => string[] {
  const info = vi.spyOn(pulumi.log, "info").mockResolvedValue();
  return () => info.mock.calls.map((call) => String(call[0]));
}

async function nextDay(): Promise<void> {
  const { nextDayAt } = await env.emulator.control.quota();
  await env.emulator.control.advanceClock(Math.ceil((nextDayAt - Date.now()) / 1000) + 1);
  await startNewDeployment();
}

describe("the plan's figure is the up's requests", () => {
  it.each([
    ["a new fleet of 40", 40, {}],
    ["a new fleet of 3 (one lookup per device)", 3, {}],
    ["a new fleet of 12 with a tslVersion (an add and a PUT each)", 12, { tslVersion: "1.1.0" }],
  ])("%s", async (_label, count, extra) => {
    const messages = infoMessages();
    const devices = entries(count, extra as Partial<Entry>);
    await upFleet("figure", devices);
    expect(await used()).toBe(figureIn(messages()));
  });

  it("a new fleet of 6 in an application of 800 other devices (one request per device beats 9 pages)", async () => {
    await env.emulator.control.seed({
      devices: serialNumbers(800, "66").map((sn, i) => ({ sn, name: `other-${i}` })),
    });
    const messages = infoMessages();
    await upFleet("among-others", entries(6));
    // Page 1 and 6 searches by serial number; 6 adds; page 1 and 6 GETs for the models.
    expect(figureIn(messages())).toBe(7 + 6 + 7);
    expect(await used()).toBe(figureIn(messages()));
  });

  it("an update of a fleet: 5 renamed, 2 retagged, 3 removed, 6 added", async () => {
    const devices = entries(30);
    const first = await upFleet("changes", devices);
    await startNewDeployment();
    await env.emulator.control.setQuota({ used: 0 });
    const messages = infoMessages();
    const changed = devices
      .slice(3)
      .map((d, i) => (i < 5 ? { ...d, name: `${d.name}-x` } : i < 7 ? { ...d, project: "other" } : d));
    const next = [...changed, ...entries(6)];
    await upFleet("changes", next, first);
    expect(await used()).toBe(figureIn(messages()));
    // 3 GETs and 3 DELETEs; 1 search, 6 adds, 1 search for their models; 7 PUTs, 2 GETs confirming projects.
    expect(figureIn(messages())).toBe(3 + 3 + (1 + 6 + 1) + (7 + 2));
  });
});

describe("a quota that runs out mid-way", () => {
  it("stops the up at once, records what was done, and the next day converges with the figure it gave", async () => {
    const devices = entries(40);
    await env.emulator.control.setQuota({ remaining: 21 });
    resetOwnership();
    const inputs = await checkFleet("spent", devices, undefined, { concurrency: 4 });
    const failure = await fleet.create(inputs).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(PartialSuccessError);
    const partial = failure as PartialSuccessError;
    expect(partial.code).toBe("quota_exhausted");
    const quota = (await env.emulator.control.quota()).applications[DEFAULT_APPLICATION_ID];
    // One lookup and 20 adds were served; the refusals are at most the adds in flight: nothing retried.
    expect(quota?.used).toBe(1_000);
    expect(quota?.refused).toBeGreaterThanOrEqual(1);
    expect(quota?.refused).toBeLessThanOrEqual(4);
    const recorded = partial.properties.deviceIds as Record<string, string>;
    expect(Object.keys(recorded)).toHaveLength(20);
    const onPlatform = (await env.emulator.control.state()).devices;
    expect(onPlatform).toHaveLength(20);
    expect(onPlatform.every((d) => recorded[d.sn] === d.deviceId)).toBe(true);
    expect(partial.message).toMatch(
      /^create DeviceFleet spent stopped: the plan's daily request quota is spent: the platform refused POST \/device\/openapi\/v1\/devices \(HTTP 429 quota_exhausted: the daily request quota of 1000 requests for this application is spent; it renews at [^,]+, requestId [0-9a-f]{32}\); nothing more was sent and nothing was retried\. Done and recorded in the stack: 20 added, 0 updated, 0 removed\. Left: 20 to add, 0 to update, 0 to remove; left to make: 22 requests \(1 lookup, 20 writes, 1 confirmation\); run `pulumi up` again once the quota has renewed/,
    );

    // The same day: the preview says what remains, without a request (the quota stays spent).
    await startNewDeployment();
    const stopped: Deployed = { inputs, outs: partial.properties };
    const messages = infoMessages();
    const next = await checkFleet("spent", devices, stopped, { concurrency: 4 });
    expect((await fleet.diff("spent", stopped.outs, next)).changes).toBe(true);
    expect(messages().at(-1)).toMatch(
      /DeviceFleet spent: 20 to add \(.*\), 20 unchanged; its `up` makes 22 requests/,
    );
    expect(quota?.used).toBe(1_000);

    await nextDay();
    const done = await applyFleet("spent", next, stopped);
    expect(await used()).toBe(22);
    const all = (await env.emulator.control.state()).devices;
    expect(all).toHaveLength(40);
    expect(new Set(all.map((d) => d.sn)).size).toBe(40);
    const ids = done.outs.deviceIds as Record<string, string>;
    expect(all.every((d) => ids[d.sn] === d.deviceId)).toBe(true);
    const infos = done.outs.devices as Record<string, { model?: string }>;
    expect(Object.values(infos).every((info) => info.model !== undefined)).toBe(true);
    await startNewDeployment();
    expect(
      (await fleet.diff("spent", done.outs, await checkFleet("spent", devices, done, { concurrency: 4 })))
        .changes,
    ).toBe(false);
  });
});

describe("a quota spent in an update and in a destroy", () => {
  it("an update whose adds' lookup is refused after its removals records the removals", async () => {
    const devices = entries(12);
    const first = await upFleet("update-spent", devices);
    await startNewDeployment();
    // 3 removals: 3 GETs and 3 DELETEs; the lookup of the 6 adds is the 7th request.
    await env.emulator.control.setQuota({ used: 0, dailyQuota: 6 });
    resetOwnership();
    const next = await checkFleet("update-spent", [...devices.slice(3), ...entries(6)], first);
    const failure = await fleet.update("update-spent", first.outs, next).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(PartialSuccessError);
    const partial = failure as PartialSuccessError;
    expect(partial.message).toContain("Done and recorded in the stack: 0 added, 0 updated, 3 removed");
    expect(partial.message).toContain("Left: 6 to add, 0 to update, 0 to remove; left to make: 8 requests");
    expect(Object.keys(partial.properties.deviceIds as object)).toHaveLength(9);
    expect((await env.emulator.control.state()).devices).toHaveLength(9);
    const quota = (await env.emulator.control.quota()).applications[DEFAULT_APPLICATION_ID];
    expect(quota).toEqual({ used: 6, remaining: 0, refused: 1 });
  });

  it("a destroy stopped by the quota says how many devices it deleted and keeps the fleet", async () => {
    const devices = entries(10);
    const { outs } = await upFleet("destroy-spent", devices);
    // The destroy is another deployment: nothing of the up's record.
    await startNewDeployment();
    resetOwnership();
    // The search of the 10 devices, then 4 DELETEs.
    await env.emulator.control.setQuota({ used: 0, dailyQuota: 5 });
    const failure = await fleet.delete("destroy-spent", outs).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(Error);
    expect((failure as Error).message).toMatch(
      /^delete DeviceFleet destroy-spent stopped: the plan's daily request quota is spent: .*\. \d+ of 10 devices were deleted; the fleet stays in the stack until the rest are/,
    );
    const left = (await env.emulator.control.state()).devices.length;
    expect((failure as Error).message).toContain(`${10 - left} of 10 devices were deleted`);
    expect(left).toBe(6);
    // The next day, under a larger quota: the 4 gone are found gone (1 search, 4 GETs), 6 DELETEs.
    await nextDay();
    await env.emulator.control.setQuota({ dailyQuota: 11 });
    await fleet.delete("destroy-spent", outs);
    expect((await env.emulator.control.quota()).applications[DEFAULT_APPLICATION_ID]?.used).toBe(11);
    expect((await env.emulator.control.state()).devices).toEqual([]);
  });
});
