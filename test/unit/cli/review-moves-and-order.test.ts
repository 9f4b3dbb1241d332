/**
 * The review of changes that span resources and of previews that stop early: a device one
 * resource stops declaring and another starts is one move (kept on the platform, its fields'
 * changes shown), not a removal under the banner; the comment is the same whatever the engine's
 * order of steps; a fleet's settings are reviewed like a configuration's properties; a
 * DeviceConfig whose only change is device ids known at apply says so; a failed preview that
 * planned no device gives no table of zeros, and its removals are what an `up` "would" do. The
 * steps are built here from the provider's own fleet record (FleetLedger); the e2e of the example
 * fleet (test/e2e/examples.test.ts) makes a move's comment from a real preview.
 */
import { describe, expect, it } from "vitest";
import { renderReview } from "../../../cli/review/markdown";
import type { PreviewReport, PreviewStep } from "../../../cli/review/preview";
import { reviewOf } from "../../../cli/review/review";
import { FleetLedger } from "../../../provider/device-fleet/state";

const TYPE = "devplatform:index:DeviceFleet";
type Entry = { name: string; tags?: string[] };

/** A plugin fleet's step from what it manages (`applied`) to what it declares. */
function fleetStep(
  name: string,
  op: string,
  applied: Record<string, Entry> | undefined,
  declared: Record<string, Entry> | undefined,
  settings: { before?: Record<string, unknown>; after?: Record<string, unknown> } = {},
): PreviewStep {
  const ledger = new FleetLedger();
  let id = 1_735_000_000_000_000_100n;
  for (const [sn, entry] of Object.entries(applied ?? {})) ledger.record(sn, String(id++), entry);
  return {
    op,
    urn: `urn:pulumi:dev::fleet::${TYPE}::${name}`,
    type: TYPE,
    old: applied && {
      inputs: { fleetName: name, devices: applied, ...settings.before },
      outputs: ledger.toOutputs(name, {}),
    },
    new: declared && { inputs: { fleetName: name, devices: declared, ...settings.after }, outputs: {} },
    detailedDiff: undefined,
  };
}

function deviceStep(op: "create" | "delete", sn: string, entry: Entry): PreviewStep {
  const state = { inputs: { sn, ...entry }, outputs: { sn, deviceId: "1735000000000000999" } };
  return {
    op,
    urn: `urn:pulumi:dev::fleet::devplatform:index:Device::${sn}`,
    type: "devplatform:index:Device",
    old: op === "delete" ? state : undefined,
    new: op === "create" ? state : undefined,
    detailedDiff: undefined,
  };
}

const report = (steps: PreviewStep[], diagnostics: PreviewReport["diagnostics"] = []): PreviewReport => ({
  format: "json",
  steps,
  diagnostics,
  policies: [],
});

const A = "240000A10001";
const B = "240000A10002";
const C = "660000B20001";
const sensor = (name: string, tags = ["group:sensors"]): Entry => ({ name, tags });

describe("a device moved between resources of one stack", () => {
  const steps = [
    fleetStep("sensors", "update", { [A]: sensor("lobby"), [B]: sensor("hall") }, { [B]: sensor("hall") }),
    fleetStep(
      "gateways",
      "update",
      { [C]: sensor("gw", ["group:gateways"]) },
      {
        [C]: sensor("gw", ["group:gateways"]),
        [A.toLowerCase()]: sensor("lobby", ["group:gateways"]),
      },
    ),
  ];

  it("is one move with the fields that change, not a removal under the banner and an add", () => {
    const review = reviewOf("dev", report(steps), 0);
    expect(review.devices).toEqual([
      {
        sn: A.toLowerCase(),
        action: "move",
        resource: "fleet gateways",
        from: "fleet sensors",
        fields: [{ field: "tags", before: ["group:sensors"], after: ["group:gateways"] }],
      },
    ]);
    expect(review.unchanged).toBe(2);
    const comment = renderReview(review);
    expect(comment).not.toContain("removed");
    expect(comment).toContain("| 1 changing | 0 | 0 | 1 | 0 | 0 | 2 |");
    expect(comment).toContain("### To move (1): kept on the platform, with their deviceIds");
    expect(comment).toContain(
      '- `240000a10001`: fleet sensors → fleet gateways; tags `["group:sensors"]` → `["group:gateways"]`',
    );
  });

  it("from a Device resource to a fleet too; a removal and an add in one resource stay what they are", () => {
    const fromDevice = reviewOf(
      "dev",
      report([
        deviceStep("delete", A, sensor("lobby")),
        fleetStep("sensors", "create", undefined, { [A]: sensor("lobby") }),
      ]),
      0,
    );
    expect(fromDevice.devices.map((d) => [d.action, d.from, d.resource, d.fields.length])).toEqual([
      ["move", `Device ${A}`, "fleet sensors", 0],
    ]);
    const sameFleet = reviewOf(
      "dev",
      report([fleetStep("sensors", "update", { [A]: sensor("a") }, { [B]: sensor("b") })]),
      0,
    );
    expect(sameFleet.devices.map((d) => d.action).sort()).toEqual(["add", "remove"]);
  });
});

describe("a removal and an add through two explicit providers", () => {
  const through = (step: PreviewStep, name: string): PreviewStep => {
    const provider = `urn:pulumi:dev::fleet::pulumi:providers:devplatform::${name}::5f1c`;
    return {
      ...step,
      old: step.old && { ...step.old, provider },
      new: step.new && { ...step.new, provider },
    };
  };
  const from = fleetStep("eu", "update", { [A]: sensor("a"), [B]: sensor("b") }, { [B]: sensor("b") });
  const to = fleetStep("us", "create", undefined, { [A]: sensor("a") });

  it("are a delete and an add: the providers may name two applications", () => {
    const review = reviewOf("dev", report([through(from, "eu-site"), through(to, "us-site")]), 0);
    expect(review.devices.map((d) => [d.action, d.resource])).toEqual([
      ["remove", "fleet eu"],
      ["add", "fleet us"],
    ]);
    expect(renderReview(review)).toContain("**1 device will be removed**");
  });

  it("are a move through one provider, or through the default providers of either front-end", () => {
    const one = reviewOf("dev", report([through(from, "eu-site"), through(to, "eu-site")]), 0);
    expect(one.devices.map((d) => d.action)).toEqual(["move"]);
    const dynamicDefault = "urn:pulumi:dev::fleet::pulumi:providers:pulumi-nodejs::default::9a1b";
    const pluginDefault = "urn:pulumi:dev::fleet::pulumi:providers:devplatform::default_0_1_0::77c2";
    const defaults = reviewOf(
      "dev",
      report([
        { ...from, old: from.old && { ...from.old, provider: dynamicDefault } },
        { ...to, new: to.new && { ...to.new, provider: pluginDefault } },
      ]),
      0,
    );
    expect(defaults.devices.map((d) => d.action)).toEqual(["move"]);
  });
});

describe("the comment of a preview", () => {
  it("is the same whatever the order of the engine's steps", () => {
    const steps = [
      fleetStep(
        "sensors",
        "update",
        { [A]: sensor("a"), [B]: sensor("b") },
        { [A]: sensor("a2"), [B]: sensor("b2") },
      ),
      fleetStep("gateways", "update", { [C]: sensor("c") }, { [C]: sensor("c2") }),
      deviceStep("create", "AC0000C30001", sensor("hvac")),
    ];
    const forward = renderReview(reviewOf("dev", report(steps), 0));
    const backward = renderReview(reviewOf("dev", report([...steps].reverse()), 0));
    expect(backward).toBe(forward);
    expect(forward.indexOf(`\`${C}\``)).toBeLessThan(forward.indexOf(`\`${A}\``));
  });

  it("reviews a fleet's settings as properties: maxRemovals and onRemove before and after", () => {
    const entries = { [A]: sensor("a") };
    const step = fleetStep("sensors", "update", entries, entries, {
      before: { maxRemovals: 5 },
      after: { maxRemovals: 20, onRemove: "release" },
    });
    const comment = renderReview(reviewOf("dev", report([step]), 0));
    expect(comment).toContain(
      '- DeviceFleet sensors (update): maxRemovals `5` → `20`; onRemove (none) → `"release"`',
    );
    expect(comment).toContain("Configuration: 1 resource changing.");
  });

  it("says when a DeviceConfig changes only in device ids known at apply", () => {
    const config: PreviewStep = {
      op: "update",
      urn: "urn:pulumi:dev::fleet::devplatform:index:DeviceConfig::sensors-config",
      type: "devplatform:index:DeviceConfig",
      old: { inputs: { deviceIds: ["1", "2", "3"], properties: { reportInterval: 900 } }, outputs: {} },
      new: {
        inputs: { deviceIds: "04da6b54-80e4-46f7-96ec-b56ff0331ba9", properties: { reportInterval: 900 } },
        outputs: {},
      },
      detailedDiff: undefined,
    };
    const review = reviewOf("dev", report([config]), 0);
    expect(review.configs).toEqual([expect.objectContaining({ devicesAtApply: true })]);
    const comment = renderReview(review);
    expect(comment).toContain("Configuration: 1 resource whose devices are known only at apply.");
    expect(comment).toContain(
      "- DeviceConfig sensors-config: its properties do not change; it applies to 3 devices now, and to the devices its fleet has after the `up`",
    );
  });

  it("that failed before planning a device gives no counts; one that planned removals says they would be", () => {
    const error = [{ urn: undefined, severity: "error", message: "error: preview failed" }];
    const none = renderReview(reviewOf("dev", report([], error), 255));
    expect(none).toContain("Device counts unknown: the preview stopped at the errors below.");
    expect(none).not.toContain("| devices |");
    const planned = fleetStep(
      "sensors",
      "update",
      { [A]: sensor("a"), [B]: sensor("b") },
      { [B]: sensor("b") },
    );
    const failed = renderReview(reviewOf("dev", report([planned], error), 255));
    expect(failed).toContain("**1 device would be removed**");
    expect(renderReview(reviewOf("dev", report([planned]), 0))).toContain("**1 device will be removed**");
  });
});
