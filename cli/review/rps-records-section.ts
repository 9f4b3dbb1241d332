/**
 * The RPS records a stack's batches change, as one section of the review comment: by serial
 * number, removals first (so they are never the part left out), then URL changes (the first 20 with
 * their URLs before and after), then adds — within the room the comment has left, the rest counted.
 */
import type { RecordChange } from "./rps-batch-changes";
import { fitList } from "./text-budget";

/** URL changes shown with their URLs; the rest by serial number. */
const DETAILED_CHANGES = 20;

const count = (n: number) => n.toLocaleString("en-US");

/** `2 to remove, 1 to change, 3 to add`. */
export function recordCounts(records: readonly RecordChange[]): string {
  const n = (action: RecordChange["action"]) => records.filter((r) => r.action === action).length;
  return `${count(n("remove"))} to remove, ${count(n("change"))} to change, ${count(n("add"))} to add`;
}

/** A category's serial numbers, one a line, under the batches that hold them. */
function list(label: string, records: readonly RecordChange[], room: number): string {
  if (records.length === 0 || room <= 0) return "";
  const items = records.map((r) => r.sn);
  const batches = [...new Set(records.map((r) => r.resource))].join(", ");
  const heading = `${label} (${count(items.length)}; ${batches}):\n\`\`\`\n`;
  const tail = " (see `pulumi preview --diff`)";
  // Room for the heading and the "… and N more" line at least, or nothing (the counts say it).
  if (room < heading.length + tail.length + 60) return "";
  return `${heading}${fitList(items, room - heading.length - 8, "\n", tail)}\n\`\`\`\n`;
}

/** The section, at most about `room` characters; empty when no record changes. */
export function rpsRecordsSection(records: readonly RecordChange[], room: number): string {
  if (records.length === 0) return "";
  let text = `### RPS records (${count(records.length)}): ${recordCounts(records)}\n\n`;
  const of = (action: RecordChange["action"]) => records.filter((r) => r.action === action);
  const changes = of("change");
  const detailed = changes
    .slice(0, DETAILED_CHANGES)
    .map((r) => `- \`${r.sn}\` (${r.resource}): ${r.before ?? ""} → ${r.after ?? ""}`);
  text += list("To remove", of("remove"), room - text.length);
  if (detailed.length > 0 && room - text.length > 300)
    text += `To change:\n${fitList(detailed, room - text.length - 40, "\n", "")}\n`;
  text += list("Also changed", changes.slice(DETAILED_CHANGES), room - text.length);
  text += list("To add", of("add"), room - text.length);
  return `${text}\n`;
}
