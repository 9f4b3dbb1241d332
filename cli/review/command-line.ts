/**
 * The review commands' command lines: `node:util` parseArgs, strict (an unknown option is a usage
 * error naming it), and the options they share.
 */
import { parseArgs, type ParseArgsConfig } from "node:util";
import { UsageError } from "../errors";

type Options = NonNullable<ParseArgsConfig["options"]>;

/** Parses `argv` against `options`; a bad command line is a {@link UsageError} with `usage`. */
export function parseCommandLine<T extends Options>(argv: readonly string[], options: T, usage: string) {
  try {
    return parseArgs({ args: [...argv], options, strict: true, allowPositionals: false }).values;
  } catch (error) {
    throw new UsageError((error as Error).message, usage);
  }
}

/** A required option's value, or a usage error naming it. */
export function required(value: string | boolean | undefined, name: string, usage: string): string {
  if (typeof value !== "string" || value.trim() === "") throw new UsageError(`--${name} is required`, usage);
  return value;
}

/** Parses `--exit-code`. */
export function exitCodeOf(given: string | boolean | undefined, usage: string): number | undefined {
  if (given === undefined) return undefined;
  if (typeof given !== "string" || !/^\d+$/.test(given))
    throw new UsageError(`--exit-code must be a whole number, got "${String(given)}"`, usage);
  return Number(given);
}
