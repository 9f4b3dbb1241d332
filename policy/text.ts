/**
 * Text as the platform will store it, for rules on names a person reads (projects, tags): a rule
 * compares the text's canonical (NFC) form, and refuses what looks like something it is not —
 * invisible or control characters (a zero-width space reads as no project at all), and
 * compatibility characters (full-width `ｐｌａｎｔ-1` reads as `plant-1` but is another project to the
 * platform).
 */

/**
 * Characters that show nothing or control the text: Unicode's control (Cc), format (Cf: zero-width
 * space, joiners, direction marks, the BOM), line and paragraph separators, private-use and
 * unassigned code points, and the fillers that render blank (Hangul fillers, braille blank).
 */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Co}\p{Cn}\u115F\u1160\u3164\uFFA0\u2800]/u;

/** The first invisible or control character of `text`, as `U+XXXX`; undefined when none. */
export function invisibleIn(text: string): string | undefined {
  const found = INVISIBLE.exec(text);
  if (found === null) return undefined;
  const code = found[0].codePointAt(0) ?? 0;
  return `U+${code.toString(16).toUpperCase().padStart(4, "0")}`;
}

/** What is wrong with `text` as a name the platform stores; undefined when nothing is. */
export function textProblem(text: string): string | undefined {
  const invisible = invisibleIn(text);
  if (invisible !== undefined) return `contains an invisible or control character (${invisible})`;
  const canonical = text.normalize("NFC");
  const compatible = text.normalize("NFKC");
  if (compatible !== canonical) return `uses look-alike characters (it reads as "${compatible}")`;
  return undefined;
}

/** Whether `text` is blank: empty, or only white space of any kind. */
export function isBlank(text: string): boolean {
  return text.normalize("NFKC").trim() === "";
}

/** The canonical form rules compare. */
export function canonical(text: string): string {
  return text.normalize("NFC");
}
