/**
 * Argument checks of the package's functions: every problem named by the function, the argument and
 * the rule, all reported at once and before any request.
 */
import type { Inputs } from "../shared/input-checks";
import { isPlainObject } from "../tsl/validate";

/** One bad argument. */
export interface ArgumentFailure {
  readonly property: string;
  readonly reason: string;
}

/** A function called with bad arguments; `failures` name each argument and its rule. */
export class FunctionArgumentError extends Error {
  constructor(readonly failures: readonly ArgumentFailure[]) {
    super(failures.map((failure) => failure.reason).join("; "));
    this.name = "FunctionArgumentError";
    // The message says everything; a stack would only hide it.
    this.stack = `${this.name}: ${this.message}`;
  }
}

/** Collects the failures of one call's arguments. */
export class ArgumentChecker {
  private readonly failures: ArgumentFailure[] = [];

  /**
   * @param fn the function's name (`getDevice`), first word of every reason
   * @param args the arguments as given
   * @param allowed every argument the function takes (another one is a failure: a typo)
   */
  constructor(
    private readonly fn: string,
    private readonly args: Inputs,
    allowed: readonly string[],
  ) {
    for (const key of Object.keys(args)) {
      if (!allowed.includes(key) && args[key] !== undefined && args[key] !== null) {
        this.fail(key, `is not an argument of ${fn}; expected one of: ${allowed.join(", ")}`);
      }
    }
  }

  /** Records a failure of `argument`. */
  fail(argument: string, rule: string): this {
    this.failures.push({ property: argument, reason: `${this.fn}: argument ${argument} ${rule}` });
    return this;
  }

  private given(name: string): boolean {
    return this.args[name] !== undefined && this.args[name] !== null;
  }

  /** An optional (or required) non-empty string, optionally matching a pattern. */
  string(name: string, rule: { required?: boolean; pattern?: RegExp; patternRule?: string } = {}): this {
    const value = this.args[name];
    if (!this.given(name)) return rule.required ? this.fail(name, "is required") : this;
    if (typeof value !== "string") return this.fail(name, `must be a string, got ${JSON.stringify(value)}`);
    if (value.trim() === "") return this.fail(name, "must not be empty");
    if (rule.pattern && !rule.pattern.test(value))
      return this.fail(name, `${rule.patternRule}, got "${value}"`);
    return this;
  }

  /** An optional list of strings, each one of `values` when given. */
  stringList(name: string, values?: readonly string[]): this {
    const value = this.args[name];
    if (!this.given(name)) return this;
    if (!Array.isArray(value)) return this.fail(name, "must be a list of strings");
    value.forEach((item: unknown, index) => {
      if (typeof item !== "string" || item === "")
        this.fail(`${name}[${index}]`, "must be a non-empty string");
      else if (values && !values.includes(item)) {
        this.fail(`${name}[${index}]`, `must be one of ${values.join(", ")}, got "${item}"`);
      }
    });
    return this;
  }

  /** An optional whole number of at least `min`. */
  integer(name: string, min: number): this {
    const value = this.args[name];
    if (!this.given(name)) return this;
    if (typeof value !== "number" || !Number.isInteger(value) || value < min) {
      return this.fail(name, `must be a whole number of at least ${min}, got ${JSON.stringify(value)}`);
    }
    return this;
  }

  /** An optional list of sort orders `{ property, direction: "asc" | "desc" }`. */
  sorts(name: string): this {
    const value = this.args[name];
    if (!this.given(name)) return this;
    if (!Array.isArray(value)) return this.fail(name, "must be a list of { property, direction }");
    value.forEach((sort: unknown, index) => {
      const at = `${name}[${index}]`;
      if (!isPlainObject(sort)) this.fail(at, "must be an object { property, direction }");
      else if (typeof sort.property !== "string" || sort.property === "")
        this.fail(`${at}.property`, "must be a non-empty string");
      else if (sort.direction !== "asc" && sort.direction !== "desc")
        this.fail(`${at}.direction`, `must be "asc" or "desc", got ${JSON.stringify(sort.direction)}`);
    });
    return this;
  }

  /** @throws FunctionArgumentError naming every bad argument, when there is one. */
  done(): void {
    if (this.failures.length > 0) throw new FunctionArgumentError(this.failures);
  }
}
