/**
 * `devplatform pr-comment`: puts a stack's summary (from `devplatform pr-summary`) on a pull
 * request as its one comment for that stack, created or updated in place.
 */
import { readFileSync } from "node:fs";
import { CommandFailure, UsageError } from "../errors";
import { parseStackCommand, required, type GitHubCommand } from "./command-line";
import { upsertComment } from "./comment-upsert";
import { githubClient } from "./github-client";
import { summaryMarker } from "./markdown";
import { redactText } from "../../sdk/redact";
import { COMMENT_LIMIT } from "./text-budget";

/** `devplatform pr-comment --help`. */
export const PR_COMMENT_USAGE = `Usage: devplatform pr-comment --repo OWNER/NAME --pr N --stack NAME --body FILE.md

Creates the pull request's comment for the stack, or updates it in place: the comment is found
by its hidden marker <!-- devplatform-summary:NAME --> across every page of the pull request's
comments (the marker is added to the body when it lacks it). An unchanged comment is not written.

  --repo OWNER/NAME  the repository ($GITHUB_REPOSITORY in a workflow)
  --pr N             the pull request's number
  --stack NAME       the stack the comment is for
  --body FILE.md     the comment (\`devplatform pr-summary --out FILE.md\`)
  -h, --help         print this text

Environment: GITHUB_TOKEN (required; the job needs \`pull-requests: write\`), GITHUB_API_URL
(default https://api.github.com).
`;

/** Runs `devplatform pr-comment`; returns the exit code. */
export const runPrComment: GitHubCommand = async (argv, env, stdout) => {
  const parsed = parseStackCommand(
    argv,
    { pr: { type: "string" }, body: { type: "string" } },
    PR_COMMENT_USAGE,
    stdout,
  );
  if (parsed === undefined) return 0;
  const { values, repository, stack } = parsed;
  const pr = required(values.pr, "pr", PR_COMMENT_USAGE);
  if (!/^[1-9]\d*$/.test(pr))
    throw new UsageError(`--pr must be a pull request's number, got "${pr}"`, PR_COMMENT_USAGE);
  const file = required(values.body, "body", PR_COMMENT_USAGE);
  let body: string;
  try {
    body = readFileSync(file, "utf8");
  } catch (error) {
    throw new CommandFailure(`cannot read the comment ${file}: ${(error as Error).message}`);
  }
  const marker = summaryMarker(stack);
  // Posted where everyone with access to the repository reads it: redacted whole.
  body = redactText(body);
  if (!body.includes(marker)) body = `${marker}\n${body}`;
  if (body.length > COMMENT_LIMIT) {
    throw new CommandFailure(
      `${file} has ${body.length} characters; GitHub takes at most ${COMMENT_LIMIT} in a comment`,
    );
  }
  const result = await upsertComment(await githubClient(env), repository, Number(pr), marker, body);
  stdout.write(
    `${result.action} comment ${result.commentId} for stack ${stack} on ${repository.owner}/${repository.repo}#${pr}\n`,
  );
  return 0;
};
