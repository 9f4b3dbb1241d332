/**
 * `devplatform drift-issue`: a scheduled check's preview of a stack (`pulumi preview --refresh
 * --expect-no-changes --json`) as the stack's one drift issue — opened, updated or closed.
 */
import { CommandFailure } from "../errors";
import { exitCodeOf, parseStackCommand, required, type GitHubCommand } from "./command-line";
import { driftMarker, reconcileDriftIssue } from "./drift-issue";
import { githubClient } from "./github-client";
import { summaryOf } from "./pr-summary-command";

/** `devplatform drift-issue --help`. */
export const DRIFT_ISSUE_USAGE = `Usage: devplatform drift-issue --repo OWNER/NAME --stack NAME --preview FILE [--exit-code N]

Keeps one issue per stack (label "drift", found by the hidden marker <!-- devplatform-drift:NAME -->
across every page of open issues): opened when the preview shows changes, naming the drifted
devices and properties; updated in place while the drift lasts; closed once a preview shows none.
A failed preview (an error, or an exit code other than 0 and 7) changes no issue and fails.

  --repo OWNER/NAME  the repository ($GITHUB_REPOSITORY in a workflow)
  --stack NAME       the stack the preview is of
  --preview FILE     \`pulumi preview --refresh --expect-no-changes --json\` output (or its
                     streaming form); --refresh reads the platform first, so what changed
                     out of band shows as what the next \`up\` puts back
  --exit-code N      the preview's exit code (7 is --expect-no-changes finding changes)
  -h, --help         print this text

Environment: GITHUB_TOKEN (required; the job needs \`issues: write\`), GITHUB_API_URL
(default https://api.github.com).
`;

/** Runs `devplatform drift-issue`; returns the exit code. */
export const runDriftIssue: GitHubCommand = async (argv, env, stdout) => {
  const parsed = parseStackCommand(
    argv,
    { preview: { type: "string" }, "exit-code": { type: "string" } },
    DRIFT_ISSUE_USAGE,
    stdout,
  );
  if (parsed === undefined) return 0;
  const { values, repository, stack } = parsed;
  const preview = required(values.preview, "preview", DRIFT_ISSUE_USAGE);
  const exitCode = exitCodeOf(values["exit-code"], DRIFT_ISSUE_USAGE);
  const { markdown, changes, failed } = summaryOf({ stack, preview, exitCode }, true);
  if (failed) {
    throw new CommandFailure(`the preview of stack ${stack} failed; its drift issue is left as it is`);
  }
  const body = changes ? `${driftMarker(stack)}\n${markdown}` : undefined;
  const result = await reconcileDriftIssue(await githubClient(env), repository, stack, body);
  const which = result.issueNumber === undefined ? "" : ` #${result.issueNumber}`;
  stdout.write(`drift issue${which} of stack ${stack}: ${result.action}\n`);
  return 0;
};
