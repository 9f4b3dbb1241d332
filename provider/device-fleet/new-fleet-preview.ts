/**
 * A new fleet's preview: created without a diff, its plan is told at its check — how many of its
 * devices are on the platform already (adopted unchanged, adopted with a PUT, refused for another
 * stack's owner tag) and the requests its `up` makes. The lookup made here is kept a minute for the
 * create that follows, so an `up` of a new fleet looks its devices up once.
 */
import { needsUpdate } from "../device/desired";
import { changesProject } from "../device/project-tag";
import { stackMarker } from "../guardrails/stack-marker";
import { log } from "../output/log";
import { platformClient } from "../platform-access/platform-client";
import type { Inputs } from "../shared/input-checks";
import { adoptionOwnerIn } from "../shared/owner-marker";
import { mayTakeOver, settingsOf, type FleetEntries, type FleetSettings } from "./inputs";
import { findDevices, type PlatformIndex } from "./lookup";
import { describeNewFleet, type Adoptable } from "./message";
import { planFleet } from "./plan";
import { figureNote, type Adoption } from "./request-count";
import { FleetLedger } from "./state";

/**
 * The lookup a new fleet's preview message made, kept for the create that follows in the same
 * deployment (a minute at most), so an `up` of a new fleet looks its devices up once.
 */
const recentLookups = new Map<string, { at: number; index: PlatformIndex }>();
const LOOKUP_REUSE_MS = 60_000;

/** The preview's lookup of `fleet`, once, when made within the last minute. */
export function takeRecentLookup(fleet: string): PlatformIndex | undefined {
  const recent = recentLookups.get(fleet);
  recentLookups.delete(fleet);
  return recent && Date.now() - recent.at < LOOKUP_REUSE_MS ? recent.index : undefined;
}

/**
 * What a new fleet will find on the platform: adopted unchanged, adopted with a PUT (retagged too),
 * or refused for another stack's owner tag.
 */
function adoptableOf(
  entries: FleetEntries,
  index: PlatformIndex,
  settings: FleetSettings,
  marker: string | undefined,
): Adoptable {
  let onPlatform = 0;
  let unchanged = 0;
  const otherProject: string[] = [];
  const otherStack: string[] = [];
  for (const [sn, entry] of Object.entries(entries)) {
    const existing = index.bySn.get(sn.toUpperCase());
    if (!existing) continue;
    onPlatform += 1;
    const want = { ...entry, sn };
    const owner = marker === undefined ? undefined : adoptionOwnerIn(existing.tag, marker);
    if (owner !== undefined && !mayTakeOver(settings, sn, existing.tag)) otherStack.push(`${sn} (${owner})`);
    if (changesProject(existing, want)) otherProject.push(sn);
    if (!needsUpdate(existing, want, marker)) unchanged += 1;
  }
  return { onPlatform, unchanged, otherProject, otherStack, refused: !settings.adoptExisting };
}

/** How each declared device already on the platform is adopted (refused adoptions write nothing). */
function adoptionsOf(
  entries: FleetEntries,
  index: PlatformIndex,
  adoptExisting: boolean,
  marker: string | undefined,
): Map<string, Adoption> {
  const adoptions = new Map<string, Adoption>();
  for (const [sn, entry] of Object.entries(entries)) {
    const existing = index.bySn.get(sn.toUpperCase());
    if (!existing) continue;
    const want = { ...entry, sn };
    const kind = !adoptExisting || !needsUpdate(existing, want, marker) ? "unchanged" : "update";
    adoptions.set(sn.toUpperCase(), kind === "update" && changesProject(existing, want) ? "retag" : kind);
  }
  return adoptions;
}

/**
 * The first preview of a fleet says how many of its devices are on the platform already, and the
 * requests its `up` makes (the lookup made here included: the `up` makes it again in its check).
 */
export async function announceNewFleet(fleet: string, entries: FleetEntries, inputs: Inputs): Promise<void> {
  const serials = Object.keys(entries);
  const settings = settingsOf(inputs);
  let adoptable: Adoptable | undefined;
  let figure = "";
  try {
    const client = await platformClient();
    const marker = await stackMarker();
    const index = await findDevices(client, { serials }, settingsOf({}).concurrency);
    recentLookups.set(fleet, { at: Date.now(), index });
    adoptable = adoptableOf(entries, index, settings, marker);
    const ledger = new FleetLedger();
    figure = figureNote(planFleet(ledger, entries, marker), entries, ledger, inputs, {
      applicationSize: index.applicationSize ?? index.byId.size,
      onPlatform: adoptionsOf(entries, index, settings.adoptExisting, marker),
      ownerTag: marker !== undefined,
    });
  } catch (error) {
    // The message is informative only; the create reports the platform's error if it persists.
    const why = error instanceof Error ? error.message : String(error);
    await log.warn(`DeviceFleet ${fleet}: could not look for devices already on the platform: ${why}`);
  }
  await log.info(describeNewFleet(fleet, entries, adoptable) + figure);
}
