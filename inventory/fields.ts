/**
 * The platform's rules for the fields an inventory holds, checked while reading so that a mistake is
 * reported with its line and column rather than later by the platform without either.
 */

import { unsafeCharacterProblem } from "../sdk/text-characters";

/** Serial numbers are 12–16 hex digits (digits included), as Add a Device accepts them. */
export const SERIAL_NUMBER = /^[0-9A-Fa-f]{12,16}$/;

/**
 * Tags per device a declaration may hold: the platform accepts 20, and the provider's owner tag
 * (the stack that manages the device) takes one of them.
 */
export const MAX_TAGS = 19;

/** Separator of tags inside the `tags` cell. */
export const TAG_SEPARATOR = ";";

/** Why `sn` is not a serial number, or undefined when it is one. */
export function serialProblem(sn: string): string | undefined {
  return SERIAL_NUMBER.test(sn) ? undefined : `"${sn}" is not a serial number (12 to 16 hex digits)`;
}

/**
 * Why a name, project or description cell cannot be used as it is, or undefined. Whitespace at
 * either end survives only in a quoted cell, and a DeviceFleet refuses it (the platform compares
 * names exactly), so it is refused here, where the line and column can be named.
 */
export function textProblem(value: string, multiline = false): string | undefined {
  if (value.trim() !== value) {
    return `${JSON.stringify(value)} starts or ends with spaces, which a DeviceFleet refuses (the platform compares names exactly)`;
  }
  return unsafeCharacterProblem(value, multiline ? "multiline" : "line");
}

/** Tags of a `tags` cell: separated by `;`, each trimmed, empty ones dropped. */
export function splitTags(cell: string): string[] {
  return cell
    .split(TAG_SEPARATOR)
    .map((tag) => tag.trim())
    .filter((tag) => tag !== "");
}

/** Why a list of tags breaks the platform's rules (at most 19 of one's own, no repeats), or undefined. */
export function tagsProblem(tags: readonly string[]): string | undefined {
  if (tags.length > MAX_TAGS) {
    return `${tags.length} tags; a device may hold at most ${MAX_TAGS} (the platform allows 20, and the provider's owner tag takes one)`;
  }
  const seen = new Set<string>();
  for (const tag of tags) {
    const unsafe = unsafeCharacterProblem(tag);
    if (unsafe !== undefined) return `tag ${tags.indexOf(tag) + 1} ${unsafe}`;
    if (seen.has(tag)) return `tag "${tag}" appears twice`;
    seen.add(tag);
  }
  return undefined;
}

/**
 * The `tags` cell of a list of tags. A tag that the cell could not give back unchanged (one with `;`
 * in it, empty, or with whitespace at either end) is refused rather than silently altered.
 */
export function joinTags(tags: readonly string[], owner: string): string {
  for (const tag of tags) {
    if (tag.includes(TAG_SEPARATOR) || tag.trim() !== tag || tag === "") {
      throw new Error(
        `${owner}: tag ${JSON.stringify(tag)} cannot be written to a tags cell (tags are separated by ";" and trimmed)`,
      );
    }
  }
  return tags.join(TAG_SEPARATOR);
}

/** Serial numbers compare without regard to case, as the platform compares them. */
export function serialKey(sn: string): string {
  return sn.toUpperCase();
}
