/**
 * The review of an RpsFleet (issue #46): its records to add, change and remove by serial number,
 * removals first, from the provider's own plan, for either front-end's step (`entries` dynamic,
 * `records` plugin); a batch of 10,000 changes stays within the comment's size with its removals
 * listed first.
 */
import { describe, expect, it } from "vitest";
import { renderReview } from "../../../cli/review/markdown";
import type { PreviewReport, PreviewStep } from "../../../cli/review/preview";
import { reviewOf } from "../../../cli/review/review";
import { COMMENT_LIMIT } from "../../../cli/review/text-budget";
import { RpsLedger } from "../../../provider/rps-fleet/state";

const URL_A = "https://rps.example.com/a";
const URL_B = "https://rps.example.com/b";

/** A batch's step from `applied` to `declared` (serial number → URL). */
function batchStep(
  front: "plugin" | "dynamic",
  applied: Record<string, string>,
  declared: Record<string, string>,
): PreviewStep {
  const type =
    front === "plugin" ? "devplatform:index:RpsFleet" : "pulumi-nodejs:dynamic/devplatform:RpsFleet";
  const ledger = new RpsLedger();
  for (const [sn, url] of Object.entries(applied)) ledger.set(sn, url);
  const key = front === "plugin" ? "records" : "entries";
  return {
    op: "update",
    urn: `urn:pulumi:dev::rps::${type}::shipment`,
    type,
    old: { inputs: { fleetName: "shipment", [key]: applied }, outputs: ledger.toOutputs("shipment", {}) },
    new: { inputs: { fleetName: "shipment", [key]: declared }, outputs: {} },
    detailedDiff: undefined,
  };
}

const report = (steps: PreviewStep[]): PreviewReport => ({
  format: "json",
  steps,
  diagnostics: [],
  policies: [],
});

const serial = (i: number) => `AC00${i.toString(16).toUpperCase().padStart(8, "0")}`;

describe("the review of an RpsFleet", () => {
  it.each(["plugin", "dynamic"] as const)(
    "lists its records by serial number, removals first (%s)",
    (front) => {
      const applied = { [serial(1)]: URL_A, [serial(2)]: URL_A, [serial(3)]: URL_A };
      const declared = { [serial(2)]: URL_B, [serial(3)]: URL_A, [serial(4)]: URL_A };
      const review = reviewOf("dev", report([batchStep(front, applied, declared)]));
      expect(review.records).toEqual([
        { sn: serial(1), action: "remove", resource: "RPS batch shipment" },
        { sn: serial(2), action: "change", resource: "RPS batch shipment", before: URL_A, after: URL_B },
        { sn: serial(4), action: "add", resource: "RPS batch shipment" },
      ]);
      const comment = renderReview(review);
      expect(comment).toContain("RPS records: 1 to remove, 1 to change, 1 to add.");
      const removeAt = comment.indexOf(`To remove (1; RPS batch shipment):\n\`\`\`\n${serial(1)}\n`);
      const changeAt = comment.indexOf(`- \`${serial(2)}\` (RPS batch shipment): ${URL_A} → ${URL_B}`);
      const addAt = comment.indexOf(`To add (1; RPS batch shipment):\n\`\`\`\n${serial(4)}\n`);
      expect(removeAt).toBeGreaterThan(0);
      expect(changeAt).toBeGreaterThan(removeAt);
      expect(addAt).toBeGreaterThan(changeAt);
    },
  );

  it("keeps 10,000 changes within the comment's size, every removal listed", () => {
    const applied: Record<string, string> = {};
    const declared: Record<string, string> = {};
    for (let i = 0; i < 3_000; i += 1) applied[serial(i)] = URL_A; // removed
    for (let i = 3_000; i < 7_000; i += 1) {
      applied[serial(i)] = URL_A;
      declared[serial(i)] = URL_B; // changed
    }
    for (let i = 7_000; i < 10_000; i += 1) declared[serial(i)] = URL_A; // added
    const comment = renderReview(reviewOf("dev", report([batchStep("plugin", applied, declared)])));
    expect(comment.length).toBeLessThanOrEqual(COMMENT_LIMIT);
    expect(comment).toContain("RPS records: 3,000 to remove, 4,000 to change, 3,000 to add.");
    const removals = /To remove \(3,000; RPS batch shipment\):\n```\n([^`]*)```/.exec(comment)?.[1] ?? "";
    expect(removals.trim().split("\n")).toHaveLength(3_000);
  });
});
