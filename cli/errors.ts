/**
 * The two kinds of failure the command expects, and how each ends: a usage error exits 2 with the
 * usage on stderr, any other expected failure exits 1 with its message alone. Neither prints a stack
 * trace; only an unexpected error (a bug) does.
 */

/** Exit code of a command line that cannot be run as given. */
export const EXIT_USAGE = 2;

/** Exit code of a command that ran and failed. */
export const EXIT_FAILURE = 1;

/** A command line that cannot be run: unknown option or command, missing or bad value. */
export class UsageError extends Error {
  /**
   * @param message what is wrong, in one sentence
   * @param usage the usage text to print after it; omitted when the message says all there is
   */
  constructor(
    message: string,
    readonly usage?: string,
  ) {
    super(message);
    this.name = "UsageError";
  }
}

/** A failure the command anticipates (unreachable platform, refused credentials, a non-empty directory). */
export class CommandFailure extends Error {
  constructor(message: string) {
    super(message);
    this.name = "CommandFailure";
  }
}
