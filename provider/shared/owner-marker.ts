/**
 * The owner marker: one tag on each device a stack adds or adopts, naming that stack
 * (`pulumi-stack:<project>/<stack>` by default), so that ownership is visible on the platform and
 * another stack's adoption, delete or reset can see it — as CloudFormation tags what it creates
 * with `aws:cloudformation:stack-name`. The marker is the provider's, not the program's: it is
 * one of the platform's 20 tags (a program declares at most 19), it is never compared in a diff
 * nor shown as drift, and every PUT (which replaces the whole tag list) sends it again.
 */

/** The marker's prefix unless `devplatform:ownerTag` says otherwise. */
export const DEFAULT_OWNER_TAG = "pulumi-stack:";

/** The platform's limit of tags per device; the marker takes one of them. */
export const PLATFORM_MAX_TAGS = 20;

/** The most tags a program declares for one device: the platform's 20 less the marker. */
export const MAX_USER_TAGS = PLATFORM_MAX_TAGS - 1;

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

/** The marker tag of `stack` (`<project>/<stack>`). */
export function markerOf(stack: string, tagPrefix = prefix): string {
  return `${tagPrefix}${stack}`;
}

/** Whether `tag` is an owner marker (of any stack). */
export function isMarker(tag: string, tagPrefix = prefix): boolean {
  return tag.startsWith(tagPrefix);
}

/** The tags a program declares: the platform's tags without owner markers. */
export function userTags(tags: readonly string[], tagPrefix = prefix): string[] {
  return tags.filter((tag) => !isMarker(tag, tagPrefix));
}

/** The stacks the markers among `tags` name (`<project>/<stack>`). */
export function ownersIn(tags: readonly string[] | undefined, tagPrefix = prefix): string[] {
  return (tags ?? []).filter((tag) => isMarker(tag, tagPrefix)).map((tag) => tag.slice(tagPrefix.length));
}

/**
 * The stack other than the one of `marker` that the markers among `tags` name, or undefined when
 * none does (no marker: a device made by hand, or managed before markers were written).
 */
export function otherOwnerIn(
  tags: readonly string[] | undefined,
  marker: string,
  tagPrefix = prefix,
): string | undefined {
  return (tags ?? [])
    .filter((tag) => isMarker(tag, tagPrefix) && tag !== marker)
    .map((tag) => tag.slice(tagPrefix.length))[0];
}

/** Whether the platform's `tags` carry `marker` and no other. */
export function carriesOnly(
  tags: readonly string[] | undefined,
  marker: string,
  tagPrefix = prefix,
): boolean {
  const markers = (tags ?? []).filter((tag) => isMarker(tag, tagPrefix));
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
