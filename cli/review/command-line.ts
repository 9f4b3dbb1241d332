/**
 * The review commands' command lines: `node:util` parseArgs, strict (an unknown option is a usage
 * error naming it), and the options they share.
 */
import { parseArgs, type ParseArgsConfig } from "node:util";
import { UsageError } from "../errors";

type Options = NonNullable<ParseArgsConfig["options"]>;

const HELP = { help: { type: "boolean", short: "h" } } as const;

/**
 * Parses `argv` against `options` (and `-h`/`--help`, which prints `usage` and answers undefined);
 * a bad command line is a {@link UsageError} with `usage`.
 */
export function parseCommandLine(
  argv: readonly string[],
  options: Options,
  usage: string,
  stdout: NodeJS.WritableStream,
): Readonly<Record<string, string | boolean | undefined>> | undefined {
  let values: Record<string, string | boolean | (string | boolean)[] | undefined>;
  try {
    values = parseArgs({
      args: [...argv],
      options: { ...options, ...HELP },
      strict: true,
      allowPositionals: false,
    }).values;
  } catch (error) {
    throw new UsageError((error as Error).message, usage);
  }
  // The review commands' options are strings and flags, never repeated.
  if (values.help !== true) return values as Record<string, string | boolean | undefined>;
  stdout.write(usage);
  return undefined;
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
