/**
 * Reads a review comment (`devplatform pr-summary`'s Markdown) the way a reviewer does: which serial
 * numbers a category (`### To add (1)`, `### To remove (1)`, …) lists.
 */

/** The serial numbers listed under the heading `### TITLE (N)`, up to the next heading; sorted. */
export function serials(body: string | undefined, title: string): string[] {
  const start = body?.search(new RegExp(`^### ${title} \\(\\d+\\)`, "mu")) ?? -1;
  if (body === undefined || start < 0) return [];
  const rest = body.slice(start + 4);
  const end = rest.search(/^#{2,3} /mu);
  const section = end < 0 ? rest : rest.slice(0, end);
  return [...new Set(section.match(/\b[0-9A-F]{12}\b/gu) ?? [])].sort();
}
