/**
 * The previews the review's e2e recorded on the real CLI (test/e2e/review-summary.test.ts with
 * DEVPLATFORM_RECORD_REVIEW): a fleet of 4 devices, one Device with a secret description and a
 * DeviceConfig, changed by a pull request (2 added, 1 renamed, 1 removed, an interval changed),
 * through each front-end, in `pulumi preview --json` and its streaming form; and an input error.
 * `plugin-policy-stream.jsonl`: the example fleet repository's preview with the policy pack (see
 * its test).
 * `scaledFleet` rewrites a recorded fleet step to a fleet of thousands — synthetically, from the
 * real step's shape, because a real preview of 10,000 devices belongs in the bench, not here.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { FleetLedger } from "../../../../provider/device-fleet/state";

export type FrontEnd = "dynamic" | "plugin";
export const FRONT_ENDS: readonly FrontEnd[] = ["dynamic", "plugin"];
export type RecordedForm = "preview.json" | "preview-stream.jsonl" | "bad-input.json" | "policy-stream.jsonl";

/** The secret the recorded program gave the Device's description. */
export const RECORDED_SECRET = "s3cret-description-7d1f";

/** A recorded preview's text. */
export function recordedPreview(front: FrontEnd, form: RecordedForm): string {
  return readFileSync(path.join(__dirname, "..", "fixtures", "review", `${front}-${form}`), "utf8");
}

/** How many devices a scaled fleet adds, updates (renamed) and removes, and keeps. */
export interface FleetMix {
  add: number;
  update: number;
  remove: number;
  keep: number;
}

/** Serial numbers of no order, as an inventory's are: 14 hex digits, `24` first (a sensor). */
function serials(count: number, seed: number): string[] {
  let state = seed;
  return Array.from({ length: count }, (_, i) => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return `24${state.toString(16).toUpperCase().padStart(8, "0")}${i.toString(16).toUpperCase().padStart(4, "0")}`;
  });
}

type Json = Record<string, unknown>;

/** The fleet's state pair within a recorded step (`--json`: oldState/newState; events: old/new). */
function fleetStates(step: Json): { oldOutputs: Json; newInputs: Json } {
  const old = (step.oldState ?? step.old) as Json;
  const next = (step.newState ?? step.new) as Json;
  return { oldOutputs: old.outputs as Json, newInputs: next.inputs as Json };
}

function rewrite(step: Json, mix: FleetMix): void {
  const { oldOutputs, newInputs } = fleetStates(step);
  const [kept, updated, removed, added] = [
    serials(mix.keep, 1),
    serials(mix.update, 2),
    serials(mix.remove, 3),
    serials(mix.add, 4),
  ];
  const ledger = new FleetLedger();
  let id = 1_735_000_000_000_000_000n;
  const entry = (i: number) => ({ name: `warehouse-sensor-${i}`, tags: ["site-a", "floor-2"] });
  [...kept, ...updated, ...removed].forEach((sn, i) => ledger.record(sn, String(id++), entry(i)));
  const recorded = ledger.toOutputs("site-a", {});
  for (const key of ["applied", "deviceIds", "devices"]) oldOutputs[key] = recorded[key];
  const declared: Json = {};
  [...kept, ...updated].forEach((sn, i) => {
    const base = entry(i);
    declared[sn] =
      i >= kept.length ? { ...base, name: `${base.name}-moved-to-the-cold-store-aisle-17` } : base;
  });
  added.forEach((sn, i) => (declared[sn] = entry(i)));
  newInputs[newInputs.entries !== undefined ? "entries" : "devices"] = declared;
}

/** A recorded preview with its fleet's step rewritten to `mix`. */
export function scaledFleet(
  front: FrontEnd,
  form: "preview.json" | "preview-stream.jsonl",
  mix: FleetMix,
): string {
  const text = recordedPreview(front, form);
  const isFleet = (step: Json) => String(step.urn).includes(":DeviceFleet::");
  if (form === "preview.json") {
    const document = JSON.parse(text) as { steps: Json[] };
    document.steps.filter(isFleet).forEach((step) => rewrite(step, mix));
    return JSON.stringify(document);
  }
  return text
    .split("\n")
    .map((line) => {
      if (!line.includes('"resourcePreEvent"')) return line;
      const event = JSON.parse(line) as { resourcePreEvent: { metadata: Json } };
      if (!isFleet(event.resourcePreEvent.metadata)) return line;
      rewrite(event.resourcePreEvent.metadata, mix);
      return JSON.stringify(event);
    })
    .join("\n");
}
