/**
 * Grouping an inventory by platform project, with a key per project that can name things (a
 * resource, a file): derived from the project's name alone, so it is stable whatever other projects
 * exist, and unique, so that two projects never share one.
 */
import { createHash } from "node:crypto";
import type { InventoryEntry } from "./inventory-file";

/** The key of devices that have no project. */
export const UNASSIGNED_KEY = "unassigned";

const MAX_SLUG_LENGTH = 40;

/** The devices of one project. */
export interface ProjectGroup {
  /** Lowercase letters, digits and `-`; see {@link projectKey}. */
  readonly key: string;
  /** The project as the platform spells it; undefined for devices without one. */
  readonly project: string | undefined;
  /** The project's devices, in inventory order. */
  readonly entries: InventoryEntry[];
}

/** Lowercase ASCII letters and digits, other runs of characters as one `-` (accents dropped). */
export function slugify(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

/**
 * The key of a project: the project itself when it is already a slug (`building-a`), otherwise its
 * slug and 8 hex digits of its SHA-256 (`Building A` → `building-a-5f3c9e1b`), so that `Building A`
 * and `building-a` stay apart. Devices without a project are `unassigned`; a project named
 * `unassigned` gets the hash suffix so the two cannot meet.
 */
export function projectKey(project: string | undefined): string {
  if (project === undefined) return UNASSIGNED_KEY;
  const slug = slugify(project).slice(0, MAX_SLUG_LENGTH).replace(/-+$/, "");
  if (slug === project && slug !== UNASSIGNED_KEY) return slug;
  const hash = createHash("sha256").update(project, "utf8").digest("hex").slice(0, 8);
  return slug === "" ? `project-${hash}` : `${slug}-${hash}`;
}

/** The inventory's devices grouped by project, groups in order of their first device. */
export function groupByProject(entries: readonly InventoryEntry[]): ProjectGroup[] {
  const groups = new Map<string | undefined, ProjectGroup>();
  for (const entry of entries) {
    let group = groups.get(entry.project);
    if (!group) {
      group = { key: projectKey(entry.project), project: entry.project, entries: [] };
      groups.set(entry.project, group);
    }
    group.entries.push(entry);
  }
  return [...groups.values()];
}
