/**
 * The review of one stack as one Markdown comment, within GitHub's 65,536 characters whatever the
 * number of devices: a banner when devices are removed, the counts, errors, policy violations,
 * then the serial numbers of each category — removals first, so that they are never the part
 * left out — configuration changes, and the property changes of the first few updates.
 */
import type { ConfigChange, DeviceAction, DeviceChange, FieldChange, StackReview } from "./review-model";
import { COMMENT_LIMIT, fitList, SECTION_RESERVE, TextBudget } from "./text-budget";
import { redactText, redactThenCut } from "../../sdk/redact";
import { showValue } from "./values";
import { recordCounts, rpsRecordsSection } from "./rps-records-section";

/** The hidden marker that finds a stack's comment again: `<!-- devplatform-summary:STACK -->`. */
export function summaryMarker(stack: string): string {
  return `<!-- devplatform-summary:${stack} -->`;
}

/** Updates shown with their property changes; the rest by serial number. */
export const DETAILED_UPDATES = 20;
/** Error and warning messages shown (each at most {@link MESSAGE_LENGTH} characters). */
const SHOWN_MESSAGES = 20;
const MESSAGE_LENGTH = 600;
const SHOWN_POLICIES = 50;
const SHOWN_CONFIGS = 30;

const count = (n: number) => n.toLocaleString("en-US");
const plural = (n: number, one: string, many = `${one}s`) => `${count(n)} ${n === 1 ? one : many}`;

/**
 * One line of text for a table cell or a list item: no newline, no pipe, at most `max` characters.
 * Redacted whole before it is flattened and cut, so that no cut ends inside a secret.
 */
function oneLine(text: string, max = MESSAGE_LENGTH): string {
  const flat = redactText(text).replace(/\s+/g, " ").replace(/\|/g, "\\|").trim();
  return redactThenCut(flat, max - 1);
}

function fieldsText(fields: readonly FieldChange[]): string {
  return fields.map((f) => `${f.field} ${showValue(f.before)} → ${showValue(f.after)}`).join("; ");
}

function byAction(review: StackReview, action: DeviceAction): DeviceChange[] {
  return review.devices.filter((d) => d.action === action);
}

function head(review: StackReview, drift: boolean): string {
  const n = (action: DeviceAction) => count(byAction(review, action).length);
  const removed = byAction(review, "remove");
  // A failed preview deploys nothing: what it planned is what an `up` would do once fixed.
  const will = review.failed ? "would be" : "will be";
  const lines = [
    summaryMarker(review.stack),
    drift ? `## Drift in stack \`${review.stack}\`` : `## Preview of stack \`${review.stack}\``,
    "",
  ];
  if (review.failed) {
    lines.push(
      "> [!WARNING]",
      "> **The preview failed**: its errors are below. Nothing is deployed until they are fixed.",
      "",
    );
  }
  if (removed.length > 0) {
    const released = removed.filter((d) => d.release).length;
    const releasedText =
      released > 0 ? ` (${count(released)} of them released: left on the platform, no longer managed)` : "";
    lines.push(
      "> [!CAUTION]",
      `> **${plural(removed.length, "device")} ${will} removed**${releasedText}. Their serial numbers are listed first below.`,
      "",
    );
  }
  const changed = review.devices.length;
  const records = review.records ?? [];
  if (changed === 0 && review.configs.length === 0 && records.length === 0 && !review.failed)
    lines.push("No device or configuration changes.", "");
  else if (changed === 0 && records.length > 0 && !review.failed) lines.push("No device changes.", "");
  else if (changed === 0 && review.unchanged === 0 && review.failed)
    lines.push("Device counts unknown: the preview stopped at the errors below.", "");
  else
    lines.push(
      "| devices | to add | to update | to move | to replace | to remove | unchanged in the fleets that change |",
      "|---|---:|---:|---:|---:|---:|---:|",
      `| ${count(changed)} changing | ${n("add")} | ${n("update")} | ${n("move")} | ${n("replace")} | ${n("remove")} | ${count(review.unchanged)} |`,
      "",
    );
  if (records.length > 0) lines.push(`RPS records: ${recordCounts(records)}.`, "");
  const atApply = review.configs.filter((c) => c.devicesAtApply).length;
  const changing = review.configs.length - atApply;
  if (review.configs.length > 0)
    lines.push(
      changing === 0
        ? `Configuration: ${plural(atApply, "resource")} whose devices are known only at apply.`
        : `Configuration: ${plural(changing, "resource")} changing` +
            (atApply > 0 ? `; ${count(atApply)} more whose devices are known only at apply.` : "."),
      "",
    );
  return lines.join("\n") + "\n";
}

function diagnosticsSection(review: StackReview): string {
  if (review.diagnostics.length === 0) return "";
  const shown = review.diagnostics.slice(0, SHOWN_MESSAGES).map((d) => {
    const where = d.urn ? ` \`${d.urn.split("::").pop()}\`` : "";
    const message = d.message.replace(new RegExp(`^${d.severity}: `), "");
    return `- **${d.severity}**${where}: ${oneLine(message)}`;
  });
  const rest = review.diagnostics.length - shown.length;
  if (rest > 0) shown.push(`- … and ${count(rest)} more (see the preview's log)`);
  return `### Errors and warnings\n\n${shown.join("\n")}\n\n`;
}

function policiesSection(review: StackReview): string {
  if (review.policies.length === 0) return "";
  const rows = review.policies.slice(0, SHOWN_POLICIES).map((p) => {
    const where = p.urn ? `\`${p.urn.split("::").pop()}\`` : "the stack";
    return `| ${p.level} | \`${p.pack}\` / \`${p.policy}\` | ${where} | ${oneLine(p.message, 300)} |`;
  });
  const rest = review.policies.length - rows.length;
  const tail = rest > 0 ? `\n… and ${count(rest)} more violations.\n` : "";
  return (
    `### Policy violations (${count(review.policies.length)})\n\n` +
    "| level | pack / policy | resource | message |\n|---|---|---|---|\n" +
    `${rows.join("\n")}\n${tail}\n`
  );
}

/** Devices grouped by the resource that declares them, in order of first appearance. */
function byResource(devices: readonly DeviceChange[]): Map<string, DeviceChange[]> {
  const groups = new Map<string, DeviceChange[]>();
  for (const device of devices) {
    const group = groups.get(device.resource);
    if (group) group.push(device);
    else groups.set(device.resource, [device]);
  }
  return groups;
}

/**
 * A category's serial numbers, one a line, under the resource that declares them: as many as
 * `room` allows (15 characters a device), the rest counted.
 */
function serialsSection(title: string, devices: readonly DeviceChange[], room: number): string {
  if (devices.length === 0) return "";
  let text = `### ${title} (${count(devices.length)})\n\n`;
  for (const [resource, group] of byResource(devices)) {
    const heading = `${resource} (${count(group.length)}):\n\`\`\`\n`;
    const items = group.map((d) => (d.release ? `${d.sn} (released)` : d.sn));
    const list = fitList(
      items,
      room - text.length - heading.length - 8,
      "\n",
      " (see `pulumi preview --diff`)",
    );
    text += `${heading}${list}\n\`\`\`\n`;
  }
  return `${text}\n`;
}

function replacementsSection(devices: readonly DeviceChange[], room: number): string {
  if (devices.length === 0) return "";
  const items = devices.map((d) => `- \`${d.sn}\` (${d.resource}): ${fieldsText(d.fields)}`);
  return `### To replace (${count(devices.length)})\n\n${fitList(items, room - 60, "\n", "")}\n\n`;
}

function configsSection(configs: readonly ConfigChange[], room: number): string {
  if (configs.length === 0) return "";
  const items = configs.slice(0, SHOWN_CONFIGS).map((c) => {
    if (c.devicesAtApply) {
      const now = c.fields[0]?.before;
      const before = typeof now === "string" ? `it applies to ${now} now, and` : "it applies";
      return `- ${c.resource}: its properties do not change; ${before} to the devices its fleet has after the \`up\` (known only at apply, and checked against their models then)`;
    }
    const what = c.fields.length > 0 ? `: ${fieldsText(c.fields)}` : "";
    return `- ${c.resource} (${c.op})${what}`;
  });
  const more = configs.length > SHOWN_CONFIGS ? ` (${count(configs.length - SHOWN_CONFIGS)} not shown)` : "";
  return `### Configuration (${count(configs.length)})\n\n${fitList(items, room - 60, "\n", more)}\n\n`;
}

function movesSection(devices: readonly DeviceChange[], room: number): string {
  if (devices.length === 0) return "";
  const items = devices.map((d) => {
    const what = d.fields.length > 0 ? `; ${fieldsText(d.fields)}` : "";
    return `- \`${d.sn}\`: ${d.from ?? "?"} → ${d.resource}${what}`;
  });
  const heading = `### To move (${count(devices.length)}): kept on the platform, with their deviceIds\n\n`;
  return `${heading}${fitList(items, room - heading.length - 60, "\n", " (see `pulumi preview --diff`)")}\n\n`;
}

function updatesSection(devices: readonly DeviceChange[], room: number): string {
  if (devices.length === 0) return "";
  const detailed = devices
    .slice(0, DETAILED_UPDATES)
    .map((d) => `- \`${d.sn}\` (${d.resource}): ${fieldsText(d.fields)}`);
  const heading = `### To update (${count(devices.length)})\n\n`;
  const shown = fitList(detailed, room - heading.length - 200, "\n", "");
  let text = `${heading}${shown}\n`;
  const rest = devices.slice(DETAILED_UPDATES);
  if (rest.length > 0) text += `\n${serialsSection("Also updated", rest, room - text.length)}`;
  return `${text}\n`;
}

/**
 * The comment for one stack (`drift`: worded as drift found by a scheduled check), at most
 * `limit` characters (GitHub's limit by default).
 */
export function renderReview(review: StackReview, options: { drift?: boolean; limit?: number } = {}): string {
  const budget = new TextBudget(options.limit ?? COMMENT_LIMIT);
  const footer =
    "\n<sub>Devices by serial number, from `pulumi preview` (devplatform pr-summary). Secret values show as `[secret]`.</sub>\n";
  const parts = [budget.force(head(review, options.drift === true)), budget.force(footer)];
  const removals = byAction(review, "remove");
  const replacements = byAction(review, "replace");
  const updates = byAction(review, "update");
  const moves = byAction(review, "move");
  const adds = byAction(review, "add");
  // Each section with whether it has anything to say: room is set aside only for those that do.
  const sections: [(room: number) => string, boolean][] = [
    [() => diagnosticsSection(review), review.diagnostics.length > 0],
    [() => policiesSection(review), review.policies.length > 0],
    [(room) => serialsSection("To remove", removals, room), removals.length > 0],
    [(room) => rpsRecordsSection(review.records ?? [], room), (review.records ?? []).length > 0],
    [(room) => replacementsSection(replacements, room), replacements.length > 0],
    [(room) => configsSection(review.configs, room), review.configs.length > 0],
    [(room) => movesSection(moves, room), moves.length > 0],
    [(room) => updatesSection(updates, room), updates.length > 0],
    [(room) => serialsSection("To add", adds, room), adds.length > 0],
    [() => review.notes.map((n) => `- ${oneLine(n)}\n`).join("") + "\n", review.notes.length > 0],
  ];
  const body: string[] = [];
  sections.forEach(([section, present], index) => {
    if (!present) return;
    const reserve = sections.slice(index + 1).filter(([, later]) => later).length * SECTION_RESERVE;
    const text = section(Math.max(0, budget.remaining - reserve));
    if (budget.take(text, reserve) || budget.take(text)) body.push(text);
  });
  return parts[0] + body.join("") + parts[1];
}
