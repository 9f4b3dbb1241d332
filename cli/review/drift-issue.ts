/**
 * One drift issue per stack: opened when a scheduled check's preview finds changes, its body
 * updated in place while they last, closed (with a comment) once a preview finds none. The issue
 * is found by the hidden marker `<!-- devplatform-drift:STACK -->` among the repository's open
 * issues labelled `drift`, across every page.
 */
import type { Octokit, RepositoryName } from "./github-client";
import { githubFailure } from "./github-client";

/** The label every drift issue carries. */
export const DRIFT_LABEL = "drift";

/** The hidden marker of a stack's drift issue. */
export function driftMarker(stack: string): string {
  return `<!-- devplatform-drift:${stack} -->`;
}

/** What the command did to the stack's issue. */
export interface DriftResult {
  readonly action: "opened" | "updated" | "unchanged" | "closed" | "none";
  readonly issueNumber?: number;
}

async function openDriftIssue(octokit: Octokit, repository: RepositoryName, marker: string) {
  try {
    for await (const page of octokit.paginate.iterator(octokit.rest.issues.listForRepo, {
      ...repository,
      labels: DRIFT_LABEL,
      state: "open",
      per_page: 100,
    })) {
      const found = page.data.find((issue) => !issue.pull_request && issue.body?.includes(marker));
      if (found) return found;
    }
    return undefined;
  } catch (error) {
    throw githubFailure(`reading the drift issues of ${repository.owner}/${repository.repo}`, error);
  }
}

/**
 * Opens, updates or closes the stack's drift issue: `body` is the drift found (it holds the
 * marker), or undefined when the stack shows none.
 */
export async function reconcileDriftIssue(
  octokit: Octokit,
  repository: RepositoryName,
  stack: string,
  body: string | undefined,
): Promise<DriftResult> {
  const marker = driftMarker(stack);
  const existing = await openDriftIssue(octokit, repository, marker);
  try {
    if (body === undefined) {
      if (!existing) return { action: "none" };
      const issue = { ...repository, issue_number: existing.number };
      await octokit.rest.issues.createComment({
        ...issue,
        body: `A preview of stack \`${stack}\` finds no drift any more: closing.`,
      });
      await octokit.rest.issues.update({ ...issue, state: "closed", state_reason: "completed" });
      return { action: "closed", issueNumber: existing.number };
    }
    if (!existing) {
      const created = await octokit.rest.issues.create({
        ...repository,
        title: `Drift in stack ${stack}`,
        body,
        labels: [DRIFT_LABEL],
      });
      return { action: "opened", issueNumber: created.data.number };
    }
    if (existing.body === body) return { action: "unchanged", issueNumber: existing.number };
    await octokit.rest.issues.update({ ...repository, issue_number: existing.number, body });
    return { action: "updated", issueNumber: existing.number };
  } catch (error) {
    throw githubFailure(`writing the drift issue of stack ${stack}`, error);
  }
}
