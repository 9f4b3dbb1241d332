/**
 * Per-property input validation for `check`: each rule adds one failure naming the property and
 * the rule, in words a user understands. Values still unknown at preview are skipped.
 */
import { maskUrl } from "../../sdk/base-url";
import { unsafeCharacterProblem, type TextKind } from "../../sdk/text-characters";
import { queryCredentialProblem } from "./url-credentials";
import { isMarker, MAX_USER_TAGS, ownerTagPrefix, PLATFORM_MAX_TAGS } from "./owner-marker";

/** One input that is wrong: the property (empty for the whole resource) and why, in a user's words. */
export interface CheckFailure {
  property: string;
  reason: string;
}

/** The value a dynamic provider sees for an input that is not known yet (during preview). */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

/** True when the engine does not know the value yet. */
export function isUnknown(value: unknown): boolean {
  return value === UNKNOWN;
}

/** The platform's serial numbers: 12 to 16 hex digits (digits alone are hex digits too). */
export const SERIAL_NUMBER = /^[0-9A-Fa-f]{12,16}$/;

export type Inputs = Record<string, unknown>;

/** Collects check failures for one resource's inputs. */
export class InputChecker {
  readonly failures: CheckFailure[] = [];

  /**
   * @param inputs the values to check
   * @param resource the resource type, first word of every reason (`Device`)
   * @param at where `inputs` sit inside the resource's inputs, e.g. `devices[3]` for a fleet entry
   * @param context what names the checked object for a person, e.g. `sn 240000A10001`
   */
  constructor(
    private readonly inputs: Inputs,
    private readonly resource: string,
    private readonly at?: string,
    private readonly context?: string,
  ) {}

  private fail(property: string, reason: string): void {
    const path = this.at === undefined ? property : `${this.at}.${property}`;
    const context = this.context === undefined ? "" : ` (${this.context})`;
    this.failures.push({ property: path, reason: `${this.resource}.${path}${context} ${reason}` });
  }

  /** Rejects properties the resource does not have (a typo would otherwise be ignored silently). */
  knownProperties(allowed: readonly string[], what: string = this.resource): this {
    for (const key of Object.keys(this.inputs)) {
      if (key !== "__provider" && !allowed.includes(key)) {
        this.fail(key, `is not a property of ${what}; expected one of: ${allowed.join(", ")}`);
      }
    }
    return this;
  }

  /** A string, non-empty, optionally required and matching a pattern. */
  string(
    property: string,
    rule: { required?: boolean; pattern?: RegExp; patternRule?: string; text?: TextKind } = {},
  ): this {
    const value = this.inputs[property];
    if (value === undefined || value === null) {
      if (rule.required) this.fail(property, "is required");
      return this;
    }
    if (isUnknown(value)) return this;
    if (typeof value !== "string")
      this.fail(property, `must be a string, ${gotInsteadOfString(value, `${property}: "…"`)}`);
    else if (value.trim() === "") this.fail(property, "must not be empty");
    else if (value.trim() !== value) this.fail(property, surroundingSpaces(value));
    else if (unsafeCharacterProblem(value, rule.text) !== undefined)
      this.fail(property, unsafeCharacterProblem(value, rule.text) as string);
    else if (rule.pattern && !rule.pattern.test(value))
      this.fail(property, `${rule.patternRule}, got "${value}"`);
    return this;
  }

  /** An optional boolean. */
  boolean(property: string): this {
    const value = this.inputs[property];
    if (value !== undefined && value !== null && !isUnknown(value) && typeof value !== "boolean") {
      this.fail(property, `must be true or false, got ${JSON.stringify(value)}`);
    }
    return this;
  }

  /** The platform's tags: at most 20, unique, each a non-empty string. */
  tags(property: string): this {
    const value = this.inputs[property];
    if (value === undefined || value === null || isUnknown(value)) return this;
    if (!Array.isArray(value)) {
      this.fail(property, "must be a list of strings");
      return this;
    }
    if (value.length > MAX_USER_TAGS) {
      this.fail(
        property,
        `may hold at most ${MAX_USER_TAGS} tags, got ${value.length}: the platform allows ${PLATFORM_MAX_TAGS}, and ` +
          `one of them is the owner marker ("${ownerTagPrefix()}<project>/<stack>", see devplatform:ownerTag)`,
      );
    }
    const seen = new Set<string>();
    value.forEach((tag, index) => {
      if (isUnknown(tag)) return;
      if (typeof tag !== "string")
        this.fail(`${property}[${index}]`, `must be a string, ${gotInsteadOfString(tag, '- "…"')}`);
      else if (tag.trim() === "") this.fail(`${property}[${index}]`, "must not be empty");
      else if (tag.trim() !== tag) this.fail(`${property}[${index}]`, surroundingSpaces(tag));
      else if (unsafeCharacterProblem(tag) !== undefined)
        this.fail(`${property}[${index}]`, unsafeCharacterProblem(tag) as string);
      else if (isMarker(tag)) {
        this.fail(
          `${property}[${index}]`,
          tag.startsWith(ownerTagPrefix())
            ? `"${tag}" is reserved: tags starting with "${ownerTagPrefix()}" are the owner marker the provider ` +
                "writes (see devplatform:ownerTag)"
            : `"${tag}" is reserved: it has the shape of an owner marker of another prefix ` +
                "(<prefix><project>/<stack>@<8 characters of a-z and 2-7>), which the provider writes",
        );
      } else if (seen.has(tag))
        this.fail(`${property}[${index}]`, `repeats the tag "${tag}"; tags must be unique`);
      else seen.add(tag);
    });
    return this;
  }

  /** An absolute https URL. */
  httpsUrl(property: string, rule: { required?: boolean } = {}): this {
    const value = this.inputs[property];
    this.string(property, rule);
    if (typeof value !== "string" || isUnknown(value) || value.trim() === "") return this;
    let url: URL | undefined;
    try {
      url = new URL(value);
    } catch {
      this.fail(property, `must be an absolute URL, got "${maskUrl(value)}"`);
      return this;
    }
    // Masked: a URL's user-info or query may hold a credential, which must reach no message.
    if (url.protocol !== "https:") this.fail(property, `must be an https URL, got "${maskUrl(value)}"`);
    else if (url.username || url.password) this.fail(property, "must not carry credentials in the URL");
    else if (queryCredentialProblem(url) !== undefined)
      this.fail(property, queryCredentialProblem(url) as string);
    return this;
  }
}

/**
 * What a value is, for a message: `the number 42798`, `null`, `true`, `an object`, `a list of 2`.
 */
export function describeInput(value: unknown): string {
  if (value === null) return "null";
  if (typeof value === "number") return `the number ${value}`;
  if (typeof value === "string") return JSON.stringify(value);
  if (Array.isArray(value)) return `a list of ${value.length}`;
  if (typeof value === "object") return "an object";
  return String(value);
}

/**
 * What came where a string belongs (`got the number 42798 (…)`), naming what it is. A number is
 * most often a YAML program's unquoted serial number or id: YAML reads `000000123456` as the octal
 * number 42798, so the message shows the digits YAML read (`0123456`) and how to quote them
 * (`quoted`, e.g. `sn: "…"`).
 */
export function gotInsteadOfString(value: unknown, quoted: string): string {
  const got = `got ${describeInput(value)}`;
  if (typeof value === "number") {
    const octal =
      Number.isSafeInteger(value) && value > 0
        ? `: an unquoted 0${value.toString(8)} arrives as ${value}`
        : "";
    return (
      `${got} (in YAML, quote it: ${quoted}; a number loses its leading zeros, and YAML reads digits ` +
      `starting with 0 as octal${octal})`
    );
  }
  if (value === null) return `${got} (in YAML, a key or list item with nothing after it, or ~, is null)`;
  return got;
}

/**
 * Why a value with leading or trailing spaces is refused: the platform would keep or trim them, and
 * either way every later comparison with what the program declares would differ (endless drift).
 */
function surroundingSpaces(value: string): string {
  return `must not start or end with spaces (the platform compares names exactly), got ${JSON.stringify(value)}`;
}

/** The inputs without properties left undefined, so state and diffs hold only what was given. */
export function definedInputs(inputs: Inputs): Inputs {
  return Object.fromEntries(
    Object.entries(inputs).filter(([, value]) => value !== undefined && value !== null),
  );
}
