/**
 * `devplatform pr-summary`: a preview's machine-readable output (either form, see preview.ts) as
 * one Markdown comment for a stack, on stdout or in a file.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { CommandFailure } from "../errors";
import { exitCodeOf, parseCommandLine, required } from "./command-line";
import { renderReview } from "./markdown";
import { PreviewFormatError, readPreview } from "./preview";
import { reviewOf } from "./review";
import { redactText } from "../../sdk/redact";

/** `devplatform pr-summary --help`. */
export const PR_SUMMARY_USAGE = `Usage: devplatform pr-summary --stack NAME --preview FILE [--exit-code N] [--out FILE.md]

Writes one Markdown comment for a stack from its preview: the devices to add, update, replace
and remove (by serial number, removals first, with a banner), the property changes of the first
updates, configuration changes, errors, and policy violations. At most 65,536 characters, GitHub's
limit on a comment, whatever the number of devices. Secret values show as [secret].

  --stack NAME      the stack the preview is of (names the comment)
  --preview FILE    the output of \`pulumi preview --json\`, or of
                    \`PULUMI_ENABLE_STREAMING_JSON_PREVIEW=1 pulumi preview --json\` (one event a
                    line; the form that carries policy violations); the form is detected
  --exit-code N     the preview's exit code (non-zero marks the comment as failed, except 7,
                    which --expect-no-changes gives for changes)
  --drift           word the comment as drift found by a check (\`devplatform drift-issue\` uses it)
  --out FILE.md     write the comment there instead of stdout
  -h, --help        print this text
`;

/** The options pr-summary and drift-issue share. */
export interface PreviewArgs {
  readonly stack: string;
  readonly preview: string;
  readonly exitCode: number | undefined;
}

/** The Markdown comment of `stack` from the preview file. */
export function summaryOf(
  args: PreviewArgs,
  drift = false,
): { markdown: string; changes: boolean; failed: boolean } {
  let text: string;
  try {
    text = readFileSync(args.preview, "utf8");
  } catch (error) {
    throw new CommandFailure(`cannot read the preview file ${args.preview}: ${(error as Error).message}`);
  }
  try {
    const review = reviewOf(args.stack, readPreview(text), args.exitCode);
    const changes = review.devices.length + review.configs.length > 0;
    // The whole comment, redacted at its last boundary (it is printed, written and posted).
    return { markdown: redactText(renderReview(review, { drift })), changes, failed: review.failed };
  } catch (error) {
    if (error instanceof PreviewFormatError) throw new CommandFailure(`${args.preview}: ${error.message}`);
    throw error;
  }
}

/** Runs `devplatform pr-summary` with its arguments; returns the exit code. */
export function runPrSummary(argv: readonly string[], stdout: NodeJS.WritableStream): number {
  const values = parseCommandLine(
    argv,
    {
      stack: { type: "string" },
      preview: { type: "string" },
      "exit-code": { type: "string" },
      drift: { type: "boolean" },
      out: { type: "string" },
    },
    PR_SUMMARY_USAGE,
    stdout,
  );
  if (values === undefined) return 0;
  const stack = required(values.stack, "stack", PR_SUMMARY_USAGE);
  const preview = required(values.preview, "preview", PR_SUMMARY_USAGE);
  const exitCode = exitCodeOf(values["exit-code"], PR_SUMMARY_USAGE);
  const { markdown } = summaryOf({ stack, preview, exitCode }, values.drift === true);
  if (typeof values.out === "string") writeFileSync(values.out, markdown);
  else stdout.write(markdown);
  return 0;
}
