/**
 * One comment per stack on a pull request, updated in place: found by its hidden marker
 * (`<!-- devplatform-summary:STACK -->`) across every page of the pull request's comments, so a
 * push edits the comment a reviewer already reads instead of adding another. An unchanged body
 * is not written again.
 */
import type { Octokit, RepositoryName } from "./github-client";
import { githubFailure } from "./github-client";

/** What the upsert did. */
export interface UpsertResult {
  readonly action: "created" | "updated" | "unchanged";
  readonly commentId: number;
  /** Pages of comments read to find it. */
  readonly pages: number;
}

/** Creates or updates the comment holding `marker` on issue or pull request `number`. */
export async function upsertComment(
  octokit: Octokit,
  repository: RepositoryName,
  number: number,
  marker: string,
  body: string,
): Promise<UpsertResult> {
  const where = { ...repository, issue_number: number };
  let pages = 0;
  let found: { id: number; body?: string | undefined } | undefined;
  try {
    for await (const page of octokit.paginate.iterator(octokit.rest.issues.listComments, {
      ...where,
      per_page: 100,
    })) {
      pages += 1;
      found = page.data.find((comment) => comment.body?.includes(marker));
      if (found) break;
    }
  } catch (error) {
    throw githubFailure(`reading the comments of ${repository.owner}/${repository.repo}#${number}`, error);
  }
  try {
    if (!found) {
      const created = await octokit.rest.issues.createComment({ ...where, body });
      return { action: "created", commentId: created.data.id, pages };
    }
    if (found.body === body) return { action: "unchanged", commentId: found.id, pages };
    await octokit.rest.issues.updateComment({ ...repository, comment_id: found.id, body });
    return { action: "updated", commentId: found.id, pages };
  } catch (error) {
    throw githubFailure(`writing the comment on ${repository.owner}/${repository.repo}#${number}`, error);
  }
}
