/**
 * A batch's state reads the same whichever of its concurrent writes ended first: a fleet's and an
 * RPS batch's outputs list serial numbers in the order the engine's checkpoint keeps them (sorted by
 * their bytes), in the run that writes them as in every later one. Before, they were in the order
 * the writes ended, and a message or check built from them differed from run to run (the clean-clone
 * CI of 8a8cb89 failed on a refusal listing …00, …03, …04, …01, …02).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { FleetLedger } from "../../../provider/device-fleet/state";
import { RpsLedger } from "../../../provider/rps-fleet/state";

/** Distinct serial numbers (distinct without regard to case), in the order their writes ended. */
const completionOrder = fc
  .uniqueArray(fc.stringMatching(/^[0-9A-Fa-f]{12}$/), {
    minLength: 1,
    maxLength: 40,
    selector: (sn) => sn.toUpperCase(),
  })
  .chain((serials) => fc.shuffledSubarray(serials, { minLength: serials.length }));

const engineOrder = (serials: readonly string[]) => [...serials].sort();

describe("a batch's outputs are in serial order, whatever order its writes ended in", () => {
  it("DeviceFleet: deviceIds, devices, applied, unmarked and the serial numbers a plan reads", () => {
    fc.assert(
      fc.property(completionOrder, (serials) => {
        const ledger = new FleetLedger();
        ledger.useMarker("pulumi-stack:p/s");
        serials.forEach((sn, i) => ledger.record(sn, String(1000 + i), { name: `d${i}` }));
        const outputs = ledger.toOutputs("fleet", {});
        const sorted = engineOrder(serials);
        expect(Object.keys(outputs.deviceIds as object)).toEqual(sorted);
        expect(Object.keys(outputs.devices as object)).toEqual(sorted);
        expect(Object.keys(JSON.parse(outputs.applied as string) as object)).toEqual(sorted);
        expect(outputs.unmarked).toEqual(sorted);
        expect(ledger.serials()).toEqual(sorted);
        expect(FleetLedger.fromOutputs(outputs).toOutputs("fleet", {})).toEqual(outputs);
      }),
    );
  });

  it("RpsFleet: profileUrls and the serial numbers a plan reads", () => {
    fc.assert(
      fc.property(completionOrder, (serials) => {
        const ledger = new RpsLedger();
        for (const sn of serials) ledger.set(sn, `https://rps.example.com/${sn}`);
        const outputs = ledger.toOutputs("batch", {});
        const sorted = engineOrder(serials);
        expect(Object.keys(outputs.profileUrls as object)).toEqual(sorted);
        expect(ledger.serials()).toEqual(sorted);
      }),
    );
  });
});
