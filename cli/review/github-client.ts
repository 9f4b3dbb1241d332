/**
 * The GitHub REST client of the review commands: `@octokit/rest` (GitHub's own client, with its
 * pagination plugin), authenticated by `GITHUB_TOKEN` and pointed at `GITHUB_API_URL` — what a
 * GitHub Actions job sets (`https://api.github.com`, or a GitHub Enterprise Server's API).
 * `@octokit/rest` is an ES module; this CommonJS package loads it with `import()`.
 */
import type { Octokit } from "@octokit/rest" with { "resolution-mode": "import" };
import { CommandFailure, UsageError } from "../errors";

export type { Octokit };

/** The API GitHub Actions names in `GITHUB_API_URL`, when it is not set. */
export const DEFAULT_API_URL = "https://api.github.com";

/** A repository as `OWNER/NAME`. */
export interface RepositoryName {
  readonly owner: string;
  readonly repo: string;
}

/** Parses `--repo OWNER/NAME`. */
export function repositoryOf(given: string, usage: string): RepositoryName {
  const match = /^([A-Za-z0-9_.-]+)\/([A-Za-z0-9_.-]+)$/.exec(given);
  if (!match) throw new UsageError(`--repo must be OWNER/NAME, got "${given}"`, usage);
  const [, owner = "", repo = ""] = match;
  return { owner, repo };
}

/** A client for the environment's token and API; fails, naming the variable, without a token. */
export async function githubClient(env: NodeJS.ProcessEnv): Promise<Octokit> {
  const token = env.GITHUB_TOKEN;
  if (!token) {
    throw new CommandFailure(
      "GITHUB_TOKEN is not set: give the step `env: GITHUB_TOKEN: ${{ secrets.GITHUB_TOKEN }}` " +
        "(with `permissions: pull-requests: write` or `issues: write`)",
    );
  }
  const { Octokit: Client } = await import("@octokit/rest");
  return new Client({
    auth: token,
    baseUrl: (env.GITHUB_API_URL || DEFAULT_API_URL).replace(/\/+$/, ""),
    userAgent: "pulumi-devplatform-review",
    // No retries or throttling plugins: a failed write is reported, and the job is rerun.
    log: { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined },
  });
}

/** A request's failure as one line: the status and GitHub's message, never the token. */
export function githubFailure(what: string, error: unknown): CommandFailure {
  const status = (error as { status?: number }).status;
  const message = (error as Error).message ?? String(error);
  return new CommandFailure(`${what} failed${status ? ` (HTTP ${status})` : ""}: ${message.split("\n")[0]}`);
}
