/**
 * The owner marker: one tag on each device a stack adds or adopts, naming that stack instance —
 * `pulumi-stack:<project>/<stack>@<instance>` by default — so that ownership is visible on the
 * platform and another stack's adoption, delete or reset can see it, as CloudFormation tags what it
 * creates with its stack's name and id. The `<instance>` (8 characters of base32, see
 * provider/deployment/stack-instance.ts) tells apart namesakes: two stacks of one project and stack
 * name on two backends. Markers of the earlier form, `<prefix><project>/<stack>`, are still read.
 * The marker is the provider's, not the program's: it is one of the platform's 20 tags (a program
 * declares at most 19), it is never compared in a diff nor shown as drift, and every PUT (which
 * replaces the whole tag list) sends it again.
 *
 * Who owns a device is decided by what a stack wrote, not by the name in the tag: a device carrying
 * the marker a resource's state recorded is that resource's, whatever the stack is called now (a
 * renamed stack or project, another prefix); any other marker is another stack's.
 */

/** The marker's prefix unless `devplatform:ownerTag` says otherwise. */
export const DEFAULT_OWNER_TAG = "pulumi-stack:";

/** The platform's limit of tags per device; the marker takes one of them. */
export const PLATFORM_MAX_TAGS = 20;

/** The most tags a program declares for one device: the platform's 20 less the marker. */
export const MAX_USER_TAGS = PLATFORM_MAX_TAGS - 1;

/** `@` and the stack instance: 8 characters of lower-case base32. */
const INSTANCE = /@[a-z2-7]{8}$/;

/**
 * A marker of any prefix: `<prefix><project>/<stack>@<instance>` (Pulumi's project and stack names
 * are letters, digits, `_`, `.` and `-`), so that a stack sees the devices of a stack configured
 * with another `ownerTag` prefix.
 */
const ANY_PREFIX_MARKER = /^\S+?[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+@[a-z2-7]{8}$/;

let prefix = DEFAULT_OWNER_TAG;

/** The prefix the process's settings chose (set when the settings are resolved). */
export function ownerTagPrefix(): string {
  return prefix;
}

/** Sets the marker's prefix: the provider's `ownerTag` setting. */
export function setOwnerTagPrefix(value: string): void {
  prefix = value;
}

/**
 * The stack a resource URN names, as `<project>/<stack>`: URNs are
 * `urn:pulumi:<stack>::<project>::<type>::<name>`. Undefined for anything else.
 */
export function stackOfUrn(urn: string): string | undefined {
  if (!urn.startsWith("urn:pulumi:")) return undefined;
  const [stack, project] = urn.slice("urn:pulumi:".length).split("::");
  if (!stack || !project) return undefined;
  return `${project}/${stack}`;
}

/** The marker tag of `stack` (`<project>/<stack>`) and its `instance` (none: the earlier form). */
export function markerOf(stack: string, tagPrefix = prefix, instance?: string): string {
  return instance === undefined ? `${tagPrefix}${stack}` : `${tagPrefix}${stack}@${instance}`;
}

/** Whether `tag` is an owner marker (of any stack): this prefix's, or any prefix's with an instance. */
export function isMarker(tag: string, tagPrefix = prefix): boolean {
  return tag.startsWith(tagPrefix) || ANY_PREFIX_MARKER.test(tag);
}

/** The tags a program declares: the platform's tags without owner markers. */
export function userTags(tags: readonly string[], tagPrefix = prefix): string[] {
  return tags.filter((tag) => !isMarker(tag, tagPrefix));
}

/** The owner markers among `tags`. */
export function markersIn(tags: readonly string[] | undefined, tagPrefix = prefix): string[] {
  return (tags ?? []).filter((tag) => isMarker(tag, tagPrefix));
}

/**
 * How a message names the stack of `tag`: `<project>/<stack>` for a marker of this prefix, the
 * whole tag for another prefix's, with the instance when it is needed to tell the stack from this
 * one (`fleet/dev@k3m7q2za`: a namesake on another backend).
 */
export function ownerName(tag: string, marker?: string, tagPrefix = prefix): string {
  const name = tag.startsWith(tagPrefix) ? tag.slice(tagPrefix.length) : tag;
  const bare = name.replace(INSTANCE, "");
  const own = marker === undefined ? undefined : marker.slice(tagPrefix.length).replace(INSTANCE, "");
  return bare === own || !tag.startsWith(tagPrefix) ? name : bare;
}

/** The stacks the markers among `tags` name (see {@link ownerName}). */
export function ownersIn(tags: readonly string[] | undefined, tagPrefix = prefix): string[] {
  return markersIn(tags, tagPrefix).map((tag) => ownerName(tag, undefined, tagPrefix));
}

/**
 * The stack, other than this one, that the markers among `tags` name (see {@link ownerName}), or
 * undefined when none does. This stack's markers are `marker` (what it writes now) and `recorded`
 * (what the resource's state says it wrote: the same stack before a rename, a project rename or a
 * prefix change). No marker: a device made by hand, or managed before markers were written.
 */
export function otherOwnerIn(
  tags: readonly string[] | undefined,
  marker: string,
  recorded?: string | readonly string[],
  tagPrefix = prefix,
): string | undefined {
  const own = new Set([
    marker,
    ...(recorded === undefined ? [] : typeof recorded === "string" ? [recorded] : recorded),
  ]);
  const other = markersIn(tags, tagPrefix).find((tag) => !own.has(tag));
  return other === undefined ? undefined : ownerName(other, marker, tagPrefix);
}

/**
 * What a refusal adds when the other owner bears this stack's own name (`fleet/dev@k3m7q2za`, or
 * the earlier form without an instance): a tag this stack's state did not record.
 */
export function namesakeNote(other: string, marker: string, tagPrefix = prefix): string {
  const own = marker.slice(tagPrefix.length).replace(INSTANCE, "");
  if (other.replace(INSTANCE, "") !== own) return "";
  return (
    ` (this stack's name, but not a tag this stack's state recorded: a stack of the same name on another ` +
    `backend or organization wrote it, or this stack before its state was lost)`
  );
}

/**
 * Whether the owner marker `tag` names one of the `stacks` a program takes over (a fleet's
 * `takeOverFrom`): each is `<project>/<stack>` (any instance: every namesake), `<project>/<stack>@<instance>`
 * (that one), or a whole tag of another prefix.
 */
export function namedAmong(tag: string, stacks: readonly string[], tagPrefix = prefix): boolean {
  if (stacks.length === 0) return false;
  const name = tag.startsWith(tagPrefix) ? tag.slice(tagPrefix.length) : tag;
  const bare = name.replace(INSTANCE, "");
  const bareTag = tag.replace(INSTANCE, "");
  return stacks.some((stack) => stack === tag || stack === name || stack === bare || stack === bareTag);
}

/**
 * The owner a resource must not adopt without a take-over: another stack's (see
 * {@link otherOwnerIn}), or — when this stack's `marker` has no instance (no backend could be found,
 * see provider/deployment/stack-instance.ts) — this stack's own name, which then cannot tell this stack
 * from a namesake: what cannot be verified is refused.
 */
export function adoptionOwnerIn(
  tags: readonly string[] | undefined,
  marker: string,
  tagPrefix = prefix,
): string | undefined {
  const other = otherOwnerIn(tags, marker, undefined, tagPrefix);
  if (other !== undefined || INSTANCE.test(marker)) return other;
  return markersIn(tags, tagPrefix).includes(marker) ? ownerName(marker, marker, tagPrefix) : undefined;
}

/** Whether the platform's `tags` carry `marker` and no other. */
export function carriesOnly(
  tags: readonly string[] | undefined,
  marker: string,
  tagPrefix = prefix,
): boolean {
  const markers = markersIn(tags, tagPrefix);
  return markers.length === 1 && markers[0] === marker;
}

/** The tag list a write sends: the declared tags (markers left out), then `marker` when there is one. */
export function withMarker(
  tags: readonly string[] | undefined,
  marker: string | undefined,
  tagPrefix = prefix,
): string[] {
  const own = userTags(tags ?? [], tagPrefix);
  return marker === undefined ? own : [...own, marker];
}
