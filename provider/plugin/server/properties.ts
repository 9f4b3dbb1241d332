/**
 * Property values between the engine's wire form (a `google.protobuf.Struct` with Pulumi's special
 * objects) and the plain values the shared implementations take.
 *
 * - Secrets arrive as `{ "4dabf…": "1b47…", value }` (the plugin accepts secrets): unwrapped on the
 *   way in, remembered by top-level property, and wrapped again on the way out, so a value that was
 *   secret in the program stays secret in the state. `clientSecret` is always secret.
 * - Unknown values (previews) are the string {@link UNKNOWN}, which is what the implementations
 *   test for; they pass through as they are.
 * - Everything else (strings, numbers, booleans, lists, objects, null) is plain JSON. Ids are
 *   strings on the wire and stay strings.
 */
import { UNKNOWN, type Inputs } from "../../shared/input-checks";
import type { StructPb } from "./rpc";
import { lazyStruct } from "./struct-codec";

/** The key that marks a special value, and the signature of a secret. */
export const SPECIAL_SIGNATURE_KEY = "4dabf18193072939515e22adb298388d";
export const SECRET_SIGNATURE = "1b47061264138c4ac30d75fd1eb44270";

/** Properties that are secret whatever the program said. */
const ALWAYS_SECRET: readonly string[] = ["clientSecret"];

/** Plain values and which of their top-level properties held a secret. */
export interface PlainProperties {
  readonly values: Inputs;
  readonly secrets: ReadonlySet<string>;
}

function isSecretObject(value: unknown): value is { value?: unknown } {
  return (
    typeof value === "object" &&
    value !== null &&
    !Array.isArray(value) &&
    (value as Record<string, unknown>)[SPECIAL_SIGNATURE_KEY] === SECRET_SIGNATURE
  );
}

/** `value` without secret wrappers; `found()` is called when one was removed. */
function unwrap(value: unknown, found: () => void): unknown {
  if (isSecretObject(value)) {
    found();
    return unwrap(value.value, found);
  }
  if (Array.isArray(value)) return value.map((item) => unwrap(item, found));
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, unwrap(item, found)]));
  }
  return value;
}

/** Plain values of a wire object (an already-converted Struct), secrets unwrapped and noted. */
export function plainOf(object: Record<string, unknown> | undefined): PlainProperties {
  const values: Inputs = {};
  const secrets = new Set<string>();
  for (const [key, value] of Object.entries(object ?? {})) {
    values[key] = unwrap(value, () => secrets.add(key));
  }
  return { values, secrets };
}

/** Plain values of a Struct from the engine (none when the request left it unset). */
export function fromStruct(struct: StructPb.Struct | undefined): PlainProperties {
  return plainOf(struct?.toJavaScript() as Record<string, unknown> | undefined);
}

/** A secret wrapper around `value`. */
export function secret(value: unknown): Record<string, unknown> {
  return { [SPECIAL_SIGNATURE_KEY]: SECRET_SIGNATURE, value };
}

/** The wire object of plain values: `secrets` (and the always-secret ones) wrapped, undefined dropped. */
export function wireOf(values: Inputs, secrets: ReadonlySet<string> = new Set()): Record<string, unknown> {
  const wire: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(values)) {
    if (value === undefined) continue;
    const isSecret = (secrets.has(key) || ALWAYS_SECRET.includes(key)) && value !== UNKNOWN;
    wire[key] = isSecret ? secret(value) : withoutUndefined(value);
  }
  return wire;
}

/** A Struct cannot hold undefined: drop it from objects, null it in lists. */
function withoutUndefined(value: unknown): unknown {
  if (Array.isArray(value)) return value.map((item) => (item === undefined ? null : withoutUndefined(item)));
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([, item]) => item !== undefined)
        .map(([key, item]) => [key, withoutUndefined(item)]),
    );
  }
  return value;
}

/** The Struct of plain values for the engine (written to the wire by struct-codec.ts). */
export function toStruct(values: Inputs, secrets?: ReadonlySet<string>): StructPb.Struct {
  return lazyStruct(wireOf(values, secrets));
}

/** The union of secret sets (e.g. what was secret in the old state or in the new inputs). */
export function secretsOf(...sets: readonly ReadonlySet<string>[]): ReadonlySet<string> {
  return new Set(sets.flatMap((set) => [...set]));
}
