/**
 * A fan-out stops starting work at a failure that says to (a spent quota), and the request figure
 * of a fleet's plan follows the lookups' choice between one request per device and the paged search.
 */
import { describe, expect, it } from "vitest";
import { QuotaExhaustedError } from "../../../sdk";
import { forEachSettled } from "../../../provider/shared/fanout";
import { isQuotaRefusal, quotaRefusalOf } from "../../../provider/shared/quota";
import { ResourceOperationError } from "../../../provider/shared/errors";
import { lookupRequests, plannedRequests } from "../../../provider/device-fleet/request-count";
import { FleetLedger } from "../../../provider/device-fleet/state";

const refusal = () =>
  new QuotaExhaustedError({
    method: "POST",
    path: "/d",
    attempts: 1,
    status: 429,
    errCode: "quota_exhausted",
  });

describe("forEachSettled with stopOn", () => {
  it("starts nothing after a stopping failure; other failures do not stop it", async () => {
    const started: number[] = [];
    const failures = await forEachSettled(
      [0, 1, 2, 3, 4, 5, 6, 7],
      1,
      async (item) => {
        started.push(item);
        if (item === 1) throw new Error("one device failed");
        if (item === 3) throw refusal();
      },
      { stopOn: isQuotaRefusal },
    );
    expect(started).toEqual([0, 1, 2, 3]);
    expect(failures.map((f) => f.item)).toEqual([1, 3]);
  });

  it("without stopOn runs every item", async () => {
    const started: number[] = [];
    await forEachSettled([0, 1, 2], 1, async (item) => {
      started.push(item);
      throw refusal();
    });
    expect(started).toEqual([0, 1, 2]);
  });

  it("finds a refusal wrapped in another error's cause, and nothing in other errors", () => {
    const inner = refusal();
    expect(quotaRefusalOf(new ResourceOperationError("add failed", { cause: inner }))).toBe(inner);
    expect(quotaRefusalOf(new Error("429 quota_exhausted"))).toBeUndefined();
  });
});

describe("request figures", () => {
  it.each([
    [0, 0, 0],
    [5, 10_000, 5],
    [6, 0, 1],
    [6, 100, 1],
    [6, 500, 5],
    [6, 701, 7],
    [6, 800, 7],
    [40, 4_000, 40],
    [40, 4_100, 41],
  ])("%i wanted in an application of %i: %i requests", (wanted, size, requests) => {
    expect(lookupRequests(wanted, size)).toBe(requests);
  });

  it("releases cost nothing; deletes a lookup and a DELETE each", () => {
    const ledger = new FleetLedger();
    const plan = { adds: [], updates: [], removals: ["A", "B"], unchanged: 0, marks: [], ownerReads: [] };
    expect(plannedRequests(plan, {}, ledger, { onRemove: "release" }, { applicationSize: 2 }).total).toBe(0);
    expect(plannedRequests(plan, {}, ledger, { onRemove: "delete" }, { applicationSize: 2 })).toEqual({
      lookups: 2,
      writes: 2,
      confirms: 0,
      total: 4,
    });
  });
});

describe("the plan messages of docs/guides/fleets-at-scale.md", () => {
  const sn = (i: number) => `24${i.toString(16).toUpperCase().padStart(12, "0")}`;

  it("site-a: 3 to add, 2 renamed, 1 to remove, 9,994 unchanged in an application of 9,997 → 13 requests", () => {
    const ledger = new FleetLedger();
    for (let i = 0; i < 9_997; i += 1)
      ledger.record(
        sn(i),
        String(1_000 + i),
        { name: `d-${i}` },
        { deviceId: String(1_000 + i), model: "EM300-TH" },
      );
    const plan = {
      adds: [sn(20_000), sn(20_001), sn(20_002)],
      updates: [
        { sn: sn(1), fields: ["name"] },
        { sn: sn(2), fields: ["name"] },
      ],
      removals: [sn(0)],
      unchanged: 9_994,
      marks: [],
      ownerReads: [],
    };
    expect(
      plannedRequests(plan, {}, ledger, { onRemove: "delete" }, { applicationSize: ledger.size }),
    ).toEqual({
      lookups: 4,
      writes: 6,
      confirms: 3,
      total: 13,
    });
  });

  it("site-b: a new fleet of 250, 247 adopted unchanged, 1 retagged, 2 new → 9 requests", () => {
    const adds = Array.from({ length: 250 }, (_, i) => sn(i));
    const onPlatform = new Map(
      adds.slice(0, 248).map((s, i) => [s, i === 0 ? ("retag" as const) : ("unchanged" as const)]),
    );
    const plan = { adds, updates: [], removals: [], unchanged: 0, marks: [], ownerReads: [] };
    const figure = plannedRequests(
      plan,
      {},
      new FleetLedger(),
      { onRemove: "delete" },
      { applicationSize: 248, onPlatform },
    );
    expect(figure).toEqual({ lookups: 3, writes: 3, confirms: 3, total: 9 });
  });

  it("a new fleet of 150 in an application of 800 others: the models are read from the 150 carrying the stack's owner tag", () => {
    const adds = Array.from({ length: 150 }, (_, i) => sn(i));
    const plan = { adds, updates: [], removals: [], unchanged: 0, marks: [], ownerReads: [] };
    const figure = (ownerTag: boolean) =>
      plannedRequests(
        plan,
        {},
        new FleetLedger(),
        { onRemove: "delete" },
        { applicationSize: 800, ownerTag },
      );
    // The adoption lookup lists the application (8 pages); the models, ⌈150/100⌉ pages of the tag
    // search with the tag, ⌈950/100⌉ of the application without one (outside a deployment).
    expect(figure(true)).toEqual({ lookups: 8, writes: 150, confirms: 2, total: 160 });
    expect(figure(false)).toEqual({ lookups: 8, writes: 150, confirms: 10, total: 168 });
  });
});
