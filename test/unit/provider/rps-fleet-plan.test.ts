/**
 * An RPS batch's plan (provider/rps-fleet/plan.ts) against a reference written plainly here: records
 * compared by serial number without regard to case. The no-change shortcut (sameRecords) must give
 * the plan the comparison gives, whatever the state and the program hold.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { planRpsFleet, sameRecords } from "../../../provider/rps-fleet/plan";

type Entries = Record<string, string>;

function reference(applied: Entries, declared: Entries) {
  const appliedKey = new Map(Object.entries(applied).map(([sn, url]) => [sn.toUpperCase(), url]));
  const declaredKeys = new Set(Object.keys(declared).map((sn) => sn.toUpperCase()));
  const adds = Object.keys(declared).filter((sn) => !appliedKey.has(sn.toUpperCase()));
  const updates = Object.entries(declared)
    .filter(([sn, url]) => appliedKey.has(sn.toUpperCase()) && appliedKey.get(sn.toUpperCase()) !== url)
    .map(([sn, to]) => ({ sn, from: appliedKey.get(sn.toUpperCase()) as string, to }));
  const removals = Object.keys(applied).filter((sn) => !declaredKeys.has(sn.toUpperCase()));
  return { adds, updates, removals, unchanged: Object.keys(declared).length - adds.length - updates.length };
}

const serial = fc.stringMatching(/^[0-9A-F]{12}$/);
const url = fc.constantFrom("https://rps.example.com/a", "https://rps.example.com/b");
/** A state's records, and the program's: the same, or changed by URL, spelling, removal or addition. */
const scenario = fc.dictionary(serial, url, { maxKeys: 30 }).chain((applied) =>
  fc
    .array(fc.tuple(fc.constantFrom("same", "url", "lower", "drop"), url), {
      minLength: Object.keys(applied).length,
      maxLength: Object.keys(applied).length,
    })
    .chain((edits) =>
      fc.dictionary(serial, url, { maxKeys: 3 }).map((added) => {
        const declared: Entries = {};
        Object.entries(applied).forEach(([sn, to], i) => {
          const [edit, other] = edits[i] ?? ["same", to];
          if (edit === "same") declared[sn] = to;
          else if (edit === "url") declared[sn] = other;
          else if (edit === "lower") declared[sn.toLowerCase()] = to;
        });
        for (const [sn, to] of Object.entries(added))
          if (!Object.keys(declared).some((each) => each.toUpperCase() === sn)) declared[sn] = to;
        return { applied, declared };
      }),
    ),
);

describe("an RPS batch's plan", () => {
  it("is the case-blind comparison's, with or without a change", () => {
    fc.assert(
      fc.property(scenario, ({ applied, declared }) => {
        expect(planRpsFleet(applied, declared)).toEqual(reference(applied, declared));
      }),
      { numRuns: 300 },
    );
  });

  it("takes the no-change shortcut only for records alike in spelling and URL", () => {
    const applied = {
      "0024E1000000": "https://rps.example.com/a",
      "0024E1000001": "https://rps.example.com/a",
    };
    expect(sameRecords(applied, { ...applied })).toBe(true);
    expect(sameRecords(applied, { ...applied, "0024E1000001": "https://rps.example.com/b" })).toBe(false);
    expect(
      sameRecords(applied, {
        "0024e1000000": "https://rps.example.com/a",
        "0024E1000001": "https://rps.example.com/a",
      }),
    ).toBe(false);
    expect(sameRecords(applied, { "0024E1000000": "https://rps.example.com/a" })).toBe(false);
    expect(planRpsFleet(applied, { ...applied })).toEqual({
      adds: [],
      updates: [],
      removals: [],
      unchanged: 2,
    });
  });
});
