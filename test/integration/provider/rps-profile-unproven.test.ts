/**
 * RpsProfile refresh when no answer of the platform shows the record gone: a platform that serves
 * one record a page never puts a record's two neighbours in one answer, so a record missing from
 * the listing cannot be proven gone — and is kept in the stack as it was (with a warning), never
 * dropped on the listing's silence.
 */
import { expect, it } from "vitest";
import { invalidateRpsListing } from "../../../provider/rps-profile/listing";
import { rpsProfileImplementation as rps } from "../../../provider/rps-profile/provider";
import { platformClient } from "../../../provider/platform-access/platform-client";
import { serialNumbers } from "../../e2e/support/fleet-programs";
import { useConfiguredEmulator } from "./support/configured-emulator";

const env = useConfiguredEmulator({ maxPageSize: 1 });

it("keeps a record the listing does not return when no page can show it gone", async () => {
  const [first, middle, last] = serialNumbers(3, "AC") as [string, string, string];
  const url = "https://rps.example.com/p";
  await env.emulator.control.seed({
    rpsRecords: [first, middle, last].map((sn) => ({ sn, profileUrl: url })),
  });
  await (await platformClient()).deleteRpsProfile(middle);
  invalidateRpsListing();
  await env.emulator.control.resetCounters();
  const props = { sn: middle, profileUrl: url };
  const read = await rps.read(middle, props);
  expect(read).toEqual({ id: middle, props, inputs: props });
  // Two pages of one record each; a page around its place cannot be cut smaller than 2.
  expect((await env.emulator.control.counters()).byRoute).toEqual({ "POST /rps/search": 2 });
  // The records around it are found as usual, and one before every record is proven gone by page 1.
  invalidateRpsListing();
  expect((await rps.read(first, { sn: first, profileUrl: url })).id).toBe(first);
  const before = serialNumbers(1, "AB")[0] as string;
  invalidateRpsListing();
  expect(await rps.read(before, { sn: before, profileUrl: url })).toEqual({ id: "", props: {} });
});
