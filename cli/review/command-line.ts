/**
 * The review commands' command lines: `node:util` parseArgs, strict (an unknown option is a usage
 * error naming it), and the options they share.
 */
import { parseArgs, type ParseArgsConfig } from "node:util";
import { UsageError } from "../errors";
import { repositoryOf, type RepositoryName } from "./github-client";

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

/** A command that writes to GitHub: its command line, environment and output; its exit code. */
export type GitHubCommand = (
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
  stdout: NodeJS.WritableStream,
) => Promise<number>;

/** A command line of a command that writes to a repository for a stack, parsed. */
export interface StackCommandLine {
  readonly values: Readonly<Record<string, string | boolean | undefined>>;
  readonly repository: RepositoryName;
  readonly stack: string;
}

/**
 * Parses the command line of a command that writes to GitHub for one stack (`pr-comment`,
 * `drift-issue`): their shared required `--repo OWNER/NAME` and `--stack NAME`, and `own` options;
 * undefined after `--help`.
 */
export function parseStackCommand(
  argv: readonly string[],
  own: Options,
  usage: string,
  stdout: NodeJS.WritableStream,
): StackCommandLine | undefined {
  const options: Options = { repo: { type: "string" }, stack: { type: "string" }, ...own };
  const values = parseCommandLine(argv, options, usage, stdout);
  if (values === undefined) return undefined;
  const repository = repositoryOf(required(values.repo, "repo", usage), usage);
  return { values, repository, stack: required(values.stack, "stack", usage) };
}
