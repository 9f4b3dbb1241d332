/**
 * Room in a comment: GitHub refuses a comment body over 65,536 characters. The review is written
 * section by section in order of importance, each taking what it needs of what is left once the
 * later sections' minimum is set aside; a list that does not fit ends with how many were left out.
 */

/** GitHub's limit on an issue or pull-request comment's body, in characters. */
export const COMMENT_LIMIT = 65_536;

/** Room kept for each later section's heading and counts when an earlier one is long. */
export const SECTION_RESERVE = 400;

const count = (n: number) => n.toLocaleString("en-US");

/** Characters left for the comment's sections. */
export class TextBudget {
  constructor(private left: number) {}

  /** Characters left. */
  get remaining(): number {
    return this.left;
  }

  /** Takes `text` when it fits in what is left after `reserve`; otherwise takes nothing. */
  take(text: string, reserve = 0): boolean {
    if (text.length > this.left - reserve) return false;
    this.left -= text.length;
    return true;
  }

  /** Takes `text` whether it fits or not (the comment's head, which is short by construction). */
  force(text: string): string {
    this.left -= text.length;
    return text;
  }
}

/**
 * As many `items` as fit in `room` characters, each followed by `separator`, then `… and N more`
 * when some did not fit: `items.length` in all, never a cut item.
 */
export function fitList(items: readonly string[], room: number, separator: string, more: string): string {
  let used = 0;
  let shown = 0;
  const tailRoom = more.length + 40;
  for (const item of items) {
    const next = item.length + separator.length;
    const last = shown === items.length - 1;
    if (used + next > room - (last ? 0 : tailRoom)) break;
    used += next;
    shown += 1;
  }
  const text = items.slice(0, shown).join(separator);
  if (shown === items.length) return text;
  const tail = `… and ${count(items.length - shown)} more${more}`;
  return shown === 0 ? tail : `${text}${separator}${tail}`;
}
