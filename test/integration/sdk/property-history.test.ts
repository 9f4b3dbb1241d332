/**
 * `propertyHistory` against the emulator: every report exactly once across `pageKey` pages, time
 * windows on the emulator's clock, the three-day default, reports arriving between pages, and the
 * reports that tasks, PATCH and out-of-band changes make. Request counts are the emulator's.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ValidationError, type DevicePlatformClient } from "../../../sdk";
import { serialNumbers, startHarness, type Harness } from "./support/harness";

const HISTORY = "GET /devices/{deviceId}/properties/history";
const DAY_SECONDS = 24 * 60 * 60;

let harness: Harness;
let client: DevicePlatformClient;
const nextSn = serialNumbers();

beforeAll(async () => {
  harness = await startHarness({ taskDelayMs: 20 });
  client = harness.client;
});

afterAll(async () => {
  await harness.stop();
});

async function newSensor(): Promise<string> {
  return (await client.addDevice({ snDevEUI: nextSn(), name: "history" })).deviceId;
}

/** `count` PATCH reports of reportInterval 60, 61, …; returns the values in report order. */
async function patchReports(deviceId: string, count: number, first = 60): Promise<number[]> {
  const values: number[] = [];
  for (let i = 0; i < count; i += 1) {
    await client.updateProperties(deviceId, { reportInterval: first + i });
    values.push(first + i);
  }
  return values;
}

async function historyRequests(): Promise<number> {
  return (await harness.emulator.control.counters()).byRoute[HISTORY] ?? 0;
}

/** The emulator-clock time of a device's latest report. */
async function lastReportTime(deviceId: string): Promise<number> {
  const reports = await harness.emulator.control.propertyReports(deviceId);
  return reports.at(-1)?.ts ?? 0;
}

describe("propertyHistory: pages", () => {
  it("returns 25 reports across 7 pages of 4, oldest first, each exactly once", async () => {
    const deviceId = await newSensor();
    const values = await patchReports(deviceId, 25);
    await harness.emulator.control.resetCounters();
    const pages = [];
    for await (const page of client.propertyHistory(deviceId, { pageSize: 4 }).pages()) pages.push(page);
    expect(pages.map((p) => p.list.length)).toEqual([4, 4, 4, 4, 4, 4, 1]);
    expect(pages.slice(0, -1).every((p) => typeof p.nextPageKey === "string")).toBe(true);
    expect(pages.at(-1)?.nextPageKey).toBeUndefined();
    expect(pages.flatMap((p) => p.list.map((r) => r.properties.reportInterval))).toEqual(values);
    expect(await historyRequests()).toBe(7);
  });

  it("costs ⌈N/pageSize⌉ requests when N is a multiple of the page size too (24 reports, 6 pages)", async () => {
    const deviceId = await newSensor();
    await patchReports(deviceId, 24);
    await harness.emulator.control.resetCounters();
    expect(await client.propertyHistory(deviceId, { pageSize: 4 }).toArray()).toHaveLength(24);
    expect(await historyRequests()).toBe(6);
  });

  it("sees a report that arrives between two pages once, at the end, and repeats or skips nothing", async () => {
    const deviceId = await newSensor();
    const values = await patchReports(deviceId, 10);
    const seen: unknown[] = [];
    let pageCount = 0;
    for await (const page of client.propertyHistory(deviceId, { pageSize: 3 }).pages()) {
      pageCount += 1;
      seen.push(...page.list.map((r) => r.properties.reportInterval));
      if (pageCount === 1) await client.updateProperties(deviceId, { reportInterval: 999 });
    }
    expect(seen).toEqual([...values, 999]);
    expect(pageCount).toBe(4);
  });

  it("keeps a fixed window fixed: a report after endTime arriving between pages is not served", async () => {
    const deviceId = await newSensor();
    const values = await patchReports(deviceId, 6);
    const endTime = await lastReportTime(deviceId);
    await harness.emulator.control.advanceClock(1);
    const seen: unknown[] = [];
    let first = true;
    for await (const page of client
      .propertyHistory(deviceId, { startTime: 0, endTime, pageSize: 2 })
      .pages()) {
      seen.push(...page.list.map((r) => r.properties.reportInterval));
      if (first) await client.updateProperties(deviceId, { reportInterval: 999 });
      first = false;
    }
    expect(seen).toEqual(values);
  });
});

describe("propertyHistory: time windows on the emulator's clock", () => {
  it("serves the reports between startTime and endTime, both included", async () => {
    const deviceId = await newSensor();
    await patchReports(deviceId, 3, 100);
    await harness.emulator.control.advanceClock(3600);
    await patchReports(deviceId, 3, 200);
    const middleStart = (await harness.emulator.control.propertyReports(deviceId))[3]?.ts ?? 0;
    const middleEnd = await lastReportTime(deviceId);
    await harness.emulator.control.advanceClock(3600);
    await patchReports(deviceId, 3, 300);

    const middle = await client
      .propertyHistory(deviceId, { startTime: middleStart, endTime: middleEnd })
      .toArray();
    expect(middle.map((r) => r.properties.reportInterval)).toEqual([200, 201, 202]);
    expect(middle.every((r) => r.ts >= middleStart && r.ts <= middleEnd)).toBe(true);
    const fromMiddle = await client.propertyHistory(deviceId, { startTime: middleStart }).toArray();
    expect(fromMiddle.map((r) => r.properties.reportInterval)).toEqual([200, 201, 202, 300, 301, 302]);
  });

  it("serves the last three days without times, and older reports only when asked for", async () => {
    const deviceId = await newSensor();
    await patchReports(deviceId, 2, 100);
    await harness.emulator.control.advanceClock(3 * DAY_SECONDS + 1);
    await patchReports(deviceId, 2, 200);
    const recent = await client.propertyHistory(deviceId).toArray();
    expect(recent.map((r) => r.properties.reportInterval)).toEqual([200, 201]);
    const all = await client.propertyHistory(deviceId, { startTime: 0 }).toArray();
    expect(all.map((r) => r.properties.reportInterval)).toEqual([100, 101, 200, 201]);
  });

  it("refuses a window that ends before it starts, and a page size over 100, before sending", async () => {
    await harness.emulator.control.resetCounters();
    expect(() => client.propertyHistory("1", { startTime: 10, endTime: 5 })).toThrow(ValidationError);
    expect(() => client.propertyHistory("1", { pageSize: 101 })).toThrow(/pageSize/);
    expect((await harness.emulator.control.counters()).total).toBe(0);
  });
});

describe("propertyHistory: what a report is", () => {
  it("records finished TSL tasks, PATCH and the control API's property changes, with exact 64-bit values", async () => {
    const deviceId = await newSensor();
    await client.updateProperties(deviceId, { reportInterval: 120 });
    await harness.emulator.control.changeDevice(deviceId, { properties: { reportCount: 9007199254740993n } });
    await client.createConfigTasks({
      type: "TSL",
      deviceIds: [deviceId],
      config: { properties: { ledEnabled: false } },
    });
    while (
      (await harness.emulator.control.tasks()).some((t) => t.deviceId === deviceId && t.status === "PENDING")
    ) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const reports = await client.propertyHistory(deviceId).toArray();
    expect(reports.map((r) => r.properties)).toEqual([
      { reportInterval: 120 },
      { reportCount: "9007199254740993" },
      { ledEnabled: false },
    ]);
    expect(reports.every((r) => Number.isSafeInteger(r.ts))).toBe(true);
  });

  it("answers device_not_found for a device that is not there", async () => {
    await expect(client.propertyHistory("1735999999999999999").toArray()).rejects.toMatchObject({
      code: "not_found",
    });
  });
});
