/**
 * `devplatform pr-summary`'s reading of real previews (recorded on the real CLI through both
 * front-ends, see support/recorded-previews.ts): the same devices and changes from either
 * front-end and either JSON form, the removal first under a banner, the input error of a failed
 * preview, and never the secret that the streaming form's debug lines carry.
 */
import { describe, expect, it } from "vitest";
import { renderReview } from "../../../cli/review/markdown";
import { readPreview } from "../../../cli/review/preview";
import { reviewOf } from "../../../cli/review/review";
import { FRONT_ENDS, RECORDED_SECRET, recordedPreview } from "./support/recorded-previews";

const FORMS = ["preview.json", "preview-stream.jsonl"] as const;

describe.each(FRONT_ENDS)("the recorded preview of the %s front-end", (front) => {
  it.each(FORMS)("%s: devices by serial number, removals first, no secret", (form) => {
    const text = recordedPreview(front, form);
    const report = readPreview(text);
    expect(report.format).toBe(form === "preview.json" ? "json" : "stream");
    const review = reviewOf("dev", report, 0);
    const byAction = (action: string) => review.devices.filter((d) => d.action === action);
    expect(byAction("add")).toHaveLength(2);
    expect(byAction("remove")).toHaveLength(1);
    expect(byAction("update")).toEqual([
      expect.objectContaining({
        resource: "fleet site-a",
        fields: [{ field: "name", before: "device-0", after: "device-0-renamed" }],
      }),
    ]);
    expect(review.unchanged).toBe(2);
    expect(review.configs).toEqual([
      expect.objectContaining({ resource: "DeviceConfig site-a-reporting", op: "update" }),
    ]);
    expect(review.failed).toBe(false);
    const comment = renderReview(review);
    const removed = byAction("remove")[0]?.sn;
    expect(removed).toMatch(/^24[0-9A-F]{12}$/);
    expect(comment).toContain("**1 device will be removed**");
    expect(comment.indexOf(`\n${removed}\n`)).toBeLessThan(comment.indexOf("### To add"));
    expect(comment).toContain("properties.reportInterval `900` → `600`");
    // The streaming form's debug lines print the Device's inputs raw; the comment never does.
    if (form === "preview-stream.jsonl") expect(text).toContain(RECORDED_SECRET);
    expect(comment).not.toContain(RECORDED_SECRET);
    expect(comment).not.toContain("debug");
  });

  it("both forms give the same comment", () => {
    const [json, stream] = FORMS.map((form) =>
      renderReview(reviewOf("dev", readPreview(recordedPreview(front, form)), 0)),
    );
    expect(stream).toBe(json);
  });

  it("a failed preview's comment says so and names the input", () => {
    const review = reviewOf("dev", readPreview(recordedPreview(front, "bad-input.json")), 255);
    expect(review.failed).toBe(true);
    const comment = renderReview(review);
    expect(comment).toContain("**The preview failed**");
    expect(comment).toContain(
      'DeviceFleet.devices[5].sn (sn not-a-serial) must be 12 to 16 hex digits, got "not-a-serial"',
    );
  });
});

describe("policy violations", () => {
  it("are listed per stack from the streaming form's policyEvents", () => {
    // The recorded stream with two policyEvent lines added in the shape of Pulumi's apitype.PolicyEvent
    // (no policy pack ran in the recording: the pack is another issue's work).
    const urn = "urn:pulumi:dev::review-plugin::devplatform:index:DeviceFleet::site-a";
    const events = [
      {
        resourceUrn: urn,
        message: "maxRemovals is not set",
        policyName: "fleet-max-removals",
        level: "mandatory",
      },
      { message: "240000A10003 is declared twice", policyName: "one-serial-one-place", level: "advisory" },
    ].map((p, i) =>
      JSON.stringify({
        sequence: 1000 + i,
        timestamp: 0,
        policyEvent: {
          ...(p.resourceUrn ? { resourceUrn: p.resourceUrn } : {}),
          message: p.message,
          color: "never",
          policyName: p.policyName,
          policyPackName: "devplatform-fleet-guardrails",
          policyPackVersion: "0.1.0",
          policyPackVersionTag: "0.1.0",
          enforcementLevel: p.level,
        },
      }),
    );
    const text = `${recordedPreview("plugin", "preview-stream.jsonl")}\n${events.join("\n")}\n`;
    const comment = renderReview(reviewOf("dev", readPreview(text), 0));
    expect(comment).toContain("### Policy violations (2)");
    expect(comment).toContain(
      "| mandatory | `devplatform-fleet-guardrails` / `fleet-max-removals` | `site-a` | maxRemovals is not set |",
    );
    expect(comment).toContain(
      "| advisory | `devplatform-fleet-guardrails` / `one-serial-one-place` | the stack | 240000A10003 is declared twice |",
    );
  });
});
