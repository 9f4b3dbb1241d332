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
  it("are listed per stack from the real policyEvents of the streaming form", () => {
    // Recorded on the real CLI (3.259) from examples/fleet-repo/fleet-yaml, stack site-a, deployed,
    // then a device added without a project (240000A20204), previewed as preview.yml does:
    //   PULUMI_ENABLE_STREAMING_JSON_PREVIEW=1 pulumi preview -s site-a --json \
    //     --policy-pack node_modules/pulumi-devplatform/policy-pack/run-pack \
    //     --policy-pack-config ../policy-config.json          (exit 1; the file as the CLI wrote it)
    const text = recordedPreview("plugin", "policy-stream.jsonl");
    const report = readPreview(text);
    expect(report.policies).toEqual([
      {
        urn: "urn:pulumi:site-a::fleet-yaml::devplatform:index:DeviceFleet::fleet",
        pack: "devplatform-guardrails",
        policy: "devplatform-project-and-tags",
        level: "mandatory",
        description: expect.stringMatching(/^Every Device and fleet entry is in a project/),
        message: 'DeviceFleet "fleet": 1 device with no project (240000A20204)',
      },
    ]);
    const review = reviewOf("site-a", report, 1);
    expect(review.failed).toBe(true);
    const comment = renderReview(review);
    expect(comment).toContain("### Policy violations (1)");
    // The violation's own message, without the policy's description the engine puts before it.
    expect(comment).toContain(
      '| mandatory | `devplatform-guardrails` / `devplatform-project-and-tags` | `fleet` | DeviceFleet "fleet": 1 device with no project (240000A20204) |',
    );
    expect(comment).not.toContain("Every Device and fleet entry");
    // The device the preview adds is still listed: a mandatory violation fails a preview, not its steps.
    expect(comment).toContain("240000A20204");
  });
});
