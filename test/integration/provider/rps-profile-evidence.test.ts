/**
 * RpsProfile, one owner and forget only on evidence, against a platform that pages at 7 records:
 * a rename without an alias keeps the record (the old resource's delete sends no DELETE); a refresh
 * drops a record only when one answer of the platform — a page of the listing sorted by serial
 * number holding both its neighbours — shows it gone, and keeps one that another writer's change
 * shifted out of the listing. Request counts are exact.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { invalidateRpsListing } from "../../../provider/rps-profile/listing";
import { rpsProfileImplementation as rps } from "../../../provider/rps-profile/provider";
import { resetOwnership } from "../../../provider/guardrails/ownership";
import { platformClient } from "../../../provider/platform-access/platform-client";
import { resetRpsOwnership } from "../../../provider/guardrails/rps-ownership";
import { serialNumbers } from "../../e2e/support/fleet-programs";
import { writesOf } from "../../e2e/support/platform-writes";
import { useConfiguredEmulator } from "./support/configured-emulator";

const env = useConfiguredEmulator({ maxPageSize: 7 });

const url = (sn: string) => `https://rps.example.com/profiles/${sn}`;

/**
 * 15 records whose serial numbers sort in this order, created in the reverse order (the listing's
 * default order): only a listing sorted by serial number shows a page holding a record's neighbours.
 */
async function fifteenRecords(): Promise<string[]> {
  const serials = serialNumbers(15, "AC");
  const reversed = [...serials].reverse();
  await env.emulator.control.seed({ rpsRecords: reversed.map((sn) => ({ sn, profileUrl: url(sn) })) });
  return serials;
}

async function counted<T>(step: () => Promise<T>): Promise<{ result: T; byRoute: Record<string, number> }> {
  await env.emulator.control.resetCounters();
  const result = await step();
  return { result, byRoute: (await env.emulator.control.counters()).byRoute };
}

async function records(): Promise<string[]> {
  return (await env.emulator.control.state()).rpsRecords.map((r) => r.sn);
}

/** A new deployment: empty one-owner record, no listing from before. */
function newDeployment(): void {
  resetOwnership();
  resetRpsOwnership();
  invalidateRpsListing();
}

beforeEach(async () => {
  await env.emulator.control.reset({ keepTokens: true });
  newDeployment();
});

describe("RpsProfile: one owner", () => {
  it("a rename without an alias keeps the record: the new resource adopts it, the old one's delete sends nothing", async () => {
    const [sn] = serialNumbers(1, "AC") as [string];
    const inputs = { sn, profileUrl: url(sn) };
    await rps.check({}, inputs);
    const first = await rps.create(inputs);
    newDeployment();
    // The engine checks and creates the renamed resource, then deletes the old one.
    const { byRoute } = await counted(async () => {
      await rps.check({}, inputs);
      await rps.create(inputs);
      await rps.delete(sn, first.outs ?? {});
    });
    expect(writesOf(byRoute)).toEqual({});
    expect(await records()).toEqual([sn]);
    invalidateRpsListing();
    expect((await rps.read(sn, first.outs ?? {})).inputs).toEqual(inputs);
  });

  it("a record no resource declares is deleted: a removal, or pulumi destroy", async () => {
    const [kept, removed] = serialNumbers(2, "AC") as [string, string];
    for (const sn of [kept, removed]) await rps.create({ sn, profileUrl: url(sn) });
    newDeployment();
    await rps.check({}, { sn: kept, profileUrl: url(kept) }); // the program declares only `kept`
    const removal = await counted(() => rps.delete(removed, { sn: removed }));
    expect(writesOf(removal.byRoute)).toEqual({ "DELETE /rps/{sn}": 1 });
    newDeployment(); // destroy: no resource is checked
    const destroy = await counted(() => rps.delete(kept, { sn: kept }));
    expect(writesOf(destroy.byRoute)).toEqual({ "DELETE /rps/{sn}": 1 });
    expect(await records()).toEqual([]);
  });
});

describe("RpsProfile refresh: gone only on the platform's answer", () => {
  it("drops a record deleted out of band when one page holds both its neighbours: 2 searches", async () => {
    const serials = await fifteenRecords();
    const gone = serials[3] as string;
    await (await platformClient()).deleteRpsProfile(gone);
    const read = await counted(() => rps.read(gone, { sn: gone, profileUrl: url(gone) }));
    expect(read.result).toEqual({ id: "", props: {} });
    // 14 records at 7 a page: 2 pages; page 1 holds its neighbours.
    expect(read.byRoute).toEqual({ "POST /rps/search": 2 });
  });

  it("asks for one more page, cut smaller, when the gone record's neighbours straddle two pages", async () => {
    const serials = await fifteenRecords();
    const gone = serials[7] as string;
    await (await platformClient()).deleteRpsProfile(gone);
    const read = await counted(() => rps.read(gone, { sn: gone, profileUrl: url(gone) }));
    expect(read.result).toEqual({ id: "", props: {} });
    expect(read.byRoute).toEqual({ "POST /rps/search": 3 });
  });

  it("keeps every record when another writer deletes one between two pages of the listing", async () => {
    const serials = await fifteenRecords();
    // Right before page 2, another writer deletes the first record: the eighth shifts onto page 1.
    await env.emulator.control.interleave({
      route: "POST /rps/search",
      before: 2,
      deleteRpsRecords: [serials[0] as string],
    });
    const mine = serials.slice(1);
    const read = await counted(() =>
      Promise.all(mine.map((sn) => rps.read(sn, { sn, profileUrl: url(sn) }))),
    );
    expect(read.result.map((r) => r.id)).toEqual(mine);
    expect(read.result.map((r) => r.inputs?.profileUrl)).toEqual(mine.map(url));
    // The shared listing (2 pages), and one page around the record it missed.
    expect(read.byRoute).toEqual({ "POST /rps/search": 3 });
  });
});
