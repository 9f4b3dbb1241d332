/**
 * A resource's inputs as plain data. `@pulumi/policy` 1.21 hands a policy its inputs behind proxies:
 * one that throws when a value unknown at preview is read, and, on the remediation path only, one
 * more that unwraps secrets. Through the second, any array method that creates an array (`filter`,
 * `map`) reads `Array.prototype` through a proxy and fails ("'get' on proxy: property 'prototype'
 * is a read-only and non-configurable data property"). So policies never call methods on what the
 * engine gave them: they copy the part they read to plain data first, by index and key only.
 *
 * - {@link plainOf} reads through the proxies: a value unknown at preview throws the engine's own
 *   error, and the engine reports "can't run policy … during preview" (the policy runs at `up`,
 *   where every input is known);
 * - {@link rawOf} unwraps the proxies without reading through them: unknown values stay the wire's
 *   markers and secrets stay secrets, so a remediation can hand back every input it did not change,
 *   known or not.
 */

/** The keys `@pulumi/policy`'s proxies answer: "am I a proxy" and "what do I wrap". */
const IS_PROXY = "__isSpecialProxy";
const TARGET = "__getSpecialProxyTarget";

/**
 * How Pulumi's wire protocol marks a value unknown at preview, by type (the same strings in
 * Pulumi's Go `plugin` package and `@pulumi/policy`'s `proxy.js`).
 */
const UNKNOWN_MARKERS: ReadonlySet<string> = new Set([
  "1c4a061d-8072-4f0a-a4cb-0ff528b18fe7",
  "3eeb2bf0-c639-47a8-9e75-3b44932eb421",
  "04da6b54-80e4-46f7-96ec-b56ff0331ba9",
  "6a19a0b0-7e62-4c92-b797-7f8e31da9cc2",
  "030794c1-ac77-496b-92df-f27374a8bd58",
  "e48ece36-62e2-4504-bad9-02848725956a",
  "dd056dcd-154b-4c76-9bd3-c8f88648b5ff",
]);

/** Whether a value read with {@link rawOf} is unknown until the `up`. */
export function isUnknown(value: unknown): boolean {
  return typeof value === "string" && UNKNOWN_MARKERS.has(value);
}

function isPlainContainer(value: object): boolean {
  if (Array.isArray(value)) return true;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * `value` copied to plain objects and arrays, read through the engine's proxies (secrets read as
 * their values). A value unknown at preview throws the engine's "can't be known during preview".
 */
export function plainOf(value: unknown): unknown {
  if (typeof value !== "object" || value === null) return value;
  if (Array.isArray(value)) {
    const copy: unknown[] = [];
    for (let i = 0; i < value.length; i++) copy.push(plainOf(value[i]));
    return copy;
  }
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) copy[key] = plainOf((value as Record<string, unknown>)[key]);
  return copy;
}

/** Unwraps the engine's proxies (each wraps the next) down to the data. */
function unwrap(value: unknown): unknown {
  let current = value;
  while (typeof current === "object" && current !== null) {
    const proxied = current as Record<string, unknown>;
    if (proxied[IS_PROXY] !== true) break;
    current = proxied[TARGET];
  }
  return current;
}

/**
 * `value` copied to plain objects and arrays without reading through the proxies: unknown values
 * stay markers ({@link isUnknown}) and secrets, assets and archives stay the objects the engine
 * serializes back, so that a remediation returns every input it does not change as it came.
 */
export function rawOf(value: unknown): unknown {
  const data = unwrap(value);
  if (typeof data !== "object" || data === null || !isPlainContainer(data)) return data;
  if (Array.isArray(data)) {
    const copy: unknown[] = [];
    for (let i = 0; i < data.length; i++) copy.push(rawOf(data[i]));
    return copy;
  }
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(data)) copy[key] = rawOf((data as Record<string, unknown>)[key]);
  return copy;
}

/** The inputs unwrapped as {@link rawOf} does, as a record. */
export function rawProps(props: Record<string, unknown>): Record<string, unknown> {
  const data = rawOf(props);
  return typeof data === "object" && data !== null && !Array.isArray(data)
    ? (data as Record<string, unknown>)
    : {};
}
