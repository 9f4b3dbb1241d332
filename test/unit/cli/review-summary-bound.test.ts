/**
 * The comment's bound: at most 65,536 characters (GitHub's limit) at 10,000 changed devices,
 * through each front-end and either JSON form, with removals never the part left out. The
 * previews are the recorded ones with the fleet's step scaled to thousands of devices
 * synthetically (support/recorded-previews.ts says how); the comment is made by the same code
 * as from a real preview.
 */
import { describe, expect, it } from "vitest";
import { renderReview } from "../../../cli/review/markdown";
import { readPreview } from "../../../cli/review/preview";
import { reviewOf } from "../../../cli/review/review";
import { COMMENT_LIMIT } from "../../../cli/review/text-budget";
import { FRONT_ENDS, scaledFleet, type FleetMix } from "./support/recorded-previews";

const MIXED: FleetMix = { add: 3_000, update: 4_000, remove: 3_000, keep: 100 };
const MIXES: [string, FleetMix][] = [
  ["10,000 removed", { add: 0, update: 0, remove: 10_000, keep: 100 }],
  ["10,000 added", { add: 10_000, update: 0, remove: 0, keep: 100 }],
  ["10,000 renamed", { add: 0, update: 10_000, remove: 0, keep: 100 }],
  ["3,000 removed, 4,000 renamed, 3,000 added", MIXED],
];

function commentOf(text: string) {
  const review = reviewOf("production-eu", readPreview(text), 0);
  return { review, comment: renderReview(review) };
}

/** The serial numbers a comment lists under a category's heading. */
function listed(comment: string, heading: string): string[] {
  const start = comment.indexOf(`### ${heading}`);
  if (start < 0) return [];
  const end = comment.indexOf("\n### ", start + 1);
  const section = comment.slice(start, end < 0 ? undefined : end);
  return section.match(/^24[0-9A-F]{12}$/gm) ?? [];
}

describe.each(FRONT_ENDS)("a comment of 10,000 changed devices through the %s front-end", (front) => {
  it.each(MIXES)("%s: within GitHub's limit, removals listed first and cut last", (_, mix) => {
    const { review, comment } = commentOf(scaledFleet(front, "preview.json", mix));
    const removed = review.devices.filter((d) => d.action === "remove").map((d) => d.sn);
    expect(review.devices).toHaveLength(10_000);
    expect(removed).toHaveLength(mix.remove);
    expect(review.unchanged).toBe(mix.keep);
    expect(comment.length).toBeLessThanOrEqual(COMMENT_LIMIT);
    expect(comment).toContain(`| 10,000 changing | ${mix.add.toLocaleString("en-US")} |`);
    // The configuration change is never crowded out.
    expect(comment).toContain("properties.reportInterval `900` → `600`");
    const shownRemovals = listed(comment, "To remove");
    if (mix.remove === 0) return;
    expect(comment).toContain(`**${mix.remove.toLocaleString("en-US")} devices will be removed**`);
    if (mix.remove <= 3_000) {
      // Every removal is listed, whatever else is cut.
      expect(shownRemovals).toEqual(removed);
      if (mix.add > 0) expect(listed(comment, "To add").length).toBeLessThan(mix.add);
    } else {
      // More removals than fit: as many as fit, in order, then the count of the rest — and
      // nothing after them takes their room.
      expect(shownRemovals).toEqual(removed.slice(0, shownRemovals.length));
      expect(shownRemovals.length).toBeGreaterThan(3_500);
      expect(comment).toContain(`… and ${(mix.remove - shownRemovals.length).toLocaleString("en-US")} more`);
    }
  });

  it("the streaming form gives the same comment", () => {
    const mix = MIXED;
    expect(commentOf(scaledFleet(front, "preview-stream.jsonl", mix)).comment).toBe(
      commentOf(scaledFleet(front, "preview.json", mix)).comment,
    );
  });

  it("the first updates show their property changes", () => {
    const { comment } = commentOf(scaledFleet(front, "preview.json", MIXED));
    const detailed = comment.match(
      /^- `24[0-9A-F]{12}` \(fleet site-a\): name `"warehouse-sensor-\d+"` → `"warehouse-sensor-\d+-moved-to-the-cold-store-aisle-17"`$/gm,
    );
    expect(detailed).toHaveLength(20);
  });
});
