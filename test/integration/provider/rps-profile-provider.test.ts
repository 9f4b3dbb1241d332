/**
 * The RpsProfile implementation against a real emulator: records created, updated in place and
 * deleted; reads sharing one listing; a clear refusal for a device already on the platform.
 */
import { describe, expect, it } from "vitest";
import { invalidateRpsListing } from "../../../provider/rps-profile/listing";
import { rpsProfileImplementation } from "../../../provider/rps-profile/provider";
import { platformClient } from "../../../provider/platform-access/platform-client";
import { resetRpsOwnership } from "../../../provider/guardrails/rps-ownership";
import { serialNumbers } from "../../e2e/support/fleet-programs";
import { useConfiguredEmulator } from "./support/configured-emulator";

const env = useConfiguredEmulator();

describe("RpsProfile", () => {
  it("creates, updates in place and deletes a record", async () => {
    const [sn] = serialNumbers(1, "AC") as [string];
    const created = await rpsProfileImplementation.create({ sn, profileUrl: "https://rps.example.com/a" });
    expect(created).toEqual({ id: sn, outs: { sn, profileUrl: "https://rps.example.com/a" } });
    await rpsProfileImplementation.update(sn, created.outs, { sn, profileUrl: "https://rps.example.com/b" });
    const records = (await env.emulator.control.state()).rpsRecords.filter((r) => r.sn === sn);
    expect(records).toEqual([expect.objectContaining({ sn, profileUrl: "https://rps.example.com/b" })]);
    resetRpsOwnership(); // the delete comes in a later deployment than the create
    await rpsProfileImplementation.delete(sn, created.outs);
    expect((await env.emulator.control.state()).rpsRecords.filter((r) => r.sn === sn)).toHaveLength(0);
    await expect(rpsProfileImplementation.delete(sn, created.outs)).resolves.toBeUndefined();
  });

  it("answers 150 concurrent reads from one paged listing", async () => {
    const serials = serialNumbers(150, "AC");
    const client = await platformClient();
    for (const sn of serials) await client.setRpsProfile({ sn, profileUrl: `https://rps.example.com/${sn}` });
    await env.emulator.control.resetCounters();
    const reads = await Promise.all(serials.map((sn) => rpsProfileImplementation.read(sn, { sn })));
    expect(
      reads.every(
        (r, i) => r.id === serials[i] && r.inputs?.profileUrl === `https://rps.example.com/${serials[i]}`,
      ),
    ).toBe(true);
    const pages = Math.ceil((await env.emulator.control.state()).rpsRecords.length / 100);
    expect((await env.emulator.control.counters()).byRoute["POST /rps/search"]).toBe(pages);
  });

  it("reads a record deleted on the platform as gone", async () => {
    const [sn] = serialNumbers(1, "AC") as [string];
    invalidateRpsListing(); // a new refresh, not the previous test's listing
    expect(await rpsProfileImplementation.read(sn, { sn })).toEqual({ id: "", props: {} });
  });

  it("refuses a record for a device already on the platform, saying so", async () => {
    const [sn] = serialNumbers(1) as [string];
    await (await platformClient()).addDevice({ snDevEUI: sn, name: "on-platform" });
    await expect(
      rpsProfileImplementation.create({ sn, profileUrl: "https://rps.example.com/x" }),
    ).rejects.toThrow(
      /create RpsProfile sn=\w+ failed: the device is already on the platform.*HTTP 409 device_on_platform.*requestId/,
    );
  });

  it("adopts an identical record without writing, and takes over one with another URL", async () => {
    const [same, other] = serialNumbers(2, "AC") as [string, string];
    const client = await platformClient();
    await client.setRpsProfile({ sn: same, profileUrl: "https://rps.example.com/same" });
    await client.setRpsProfile({ sn: other, profileUrl: "https://rps.example.com/old" });
    invalidateRpsListing();
    await env.emulator.control.resetCounters();
    await rpsProfileImplementation.create({
      sn: same.toLowerCase(),
      profileUrl: "https://rps.example.com/same",
    });
    expect((await env.emulator.control.counters()).byRoute["POST /rps/profile"]).toBeUndefined();

    await rpsProfileImplementation.create({ sn: other, profileUrl: "https://rps.example.com/new" });
    const { byRoute } = await env.emulator.control.counters();
    expect(byRoute["POST /rps/profile"]).toBe(1);
    const record = (await env.emulator.control.state()).rpsRecords.find((r) => r.sn === other);
    expect(record?.profileUrl).toBe("https://rps.example.com/new");
  });

  it("reads a record declared in another case as the same record, keeping the declared spelling", async () => {
    const [sn] = serialNumbers(1, "AC") as [string];
    await (await platformClient()).setRpsProfile({ sn, profileUrl: "https://rps.example.com/c" });
    invalidateRpsListing();
    const read = await rpsProfileImplementation.read(sn.toLowerCase(), { sn: sn.toLowerCase() });
    expect(read.inputs).toEqual({ sn: sn.toLowerCase(), profileUrl: "https://rps.example.com/c" });
    const diff = await rpsProfileImplementation.diff(
      sn,
      { sn, profileUrl: "u" },
      { sn: sn.toLowerCase(), profileUrl: "u" },
    );
    expect(diff.changes).toBe(false);
  });
});
