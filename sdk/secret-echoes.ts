/**
 * Finding a secret in a text whatever form a server echoed it in.
 *
 * A list of encoded forms (as is, `encodeURIComponent`, form encoding, `JSON.stringify`) misses
 * every encoder that chooses differently which characters to escape: a server that percent-encodes
 * every character (`%2A` for `*`, even `%41` for `A`), one that writes JSON's `\u00e4` where another
 * writes `ä`, PHP's `\/`. So the match goes character by character instead: each character of the
 * secret may appear as itself or as any one escape of it — `%XX` of its UTF-8 bytes (either case of
 * hex digit), `+` for a space, a JSON escape (`\uXXXX` of each UTF-16 unit, `\"`, `\\`, `\/`, `\n`
 * and the other short ones), an HTML character reference (`&amp;`, `&#38;`, `&#x26;`) — and the
 * escapes may be mixed within one echo. Escapes of escapes (a percent-encoded JSON escape) are not
 * followed.
 *
 * The match is a set-of-positions walk (every way the characters so far can have been written), so
 * it takes time proportional to the text, the secret and the few forms per character, never more.
 */

/** The end of the echo of `secret` that starts at `start` in `text`, or undefined. */
export function echoEnd(
  text: string,
  start: number,
  characters: readonly string[],
  partialAtEnd: number,
): number | undefined {
  let positions: number[] = [start];
  for (const [index, character] of characters.entries()) {
    // The text ends inside the echo (a server that cut what it echoed): the start of a secret is as
    // secret as the rest of it.
    if (index >= partialAtEnd && positions.includes(text.length)) return text.length;
    const next = new Set<number>();
    for (const at of positions) for (const end of characterEnds(text, at, character)) next.add(end);
    if (next.size === 0) return undefined;
    positions = [...next];
  }
  return Math.max(...positions);
}

/** The positions where one written form of `character` starting at `at` ends. */
function characterEnds(text: string, at: number, character: string): number[] {
  if (at >= text.length) return [];
  const ends: number[] = [];
  if (text.startsWith(character, at)) ends.push(at + character.length);
  const first = text[at];
  if (first === "%") push(ends, percentEnd(text, at, character));
  else if (first === "\\") push(ends, jsonEscapeEnd(text, at, character));
  else if (first === "&") push(ends, htmlReferenceEnd(text, at, character));
  else if (first === "+" && character === " ") ends.push(at + 1);
  return ends;
}

function push(ends: number[], end: number | undefined): void {
  if (end !== undefined) ends.push(end);
}

const encoder = new TextEncoder();

/** `%XX` for each UTF-8 byte of `character`, hex digits in either case. */
function percentEnd(text: string, at: number, character: string): number | undefined {
  let position = at;
  for (const byte of encoder.encode(character)) {
    if (text[position] !== "%" || hexAt(text, position + 1, 2) !== byte) return undefined;
    position += 3;
  }
  return position;
}

/** The value of `digits` hex digits at `at`, or undefined when they are not all hex digits. */
function hexAt(text: string, at: number, digits: number): number | undefined {
  const part = text.slice(at, at + digits);
  return part.length === digits && /^[0-9a-fA-F]+$/.test(part) ? parseInt(part, 16) : undefined;
}

const SHORT_ESCAPES: Readonly<Record<string, string>> = {
  '"': '"',
  "\\": "\\",
  "/": "/",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
};

/**
 * A JSON string escape of `character`: a short escape, or `\uXXXX` for each of its UTF-16 units
 * (a character outside the BMP is two), each unit written as itself or escaped.
 */
function jsonEscapeEnd(text: string, at: number, character: string): number | undefined {
  if (character.length === 1 && SHORT_ESCAPES[text[at + 1] ?? ""] === character) return at + 2;
  let position = at;
  for (let unit = 0; unit < character.length; unit += 1) {
    const code = character.charCodeAt(unit);
    if (text.startsWith("\\u", position) && hexAt(text, position + 2, 4) === code) position += 6;
    else if (position > at && text.charCodeAt(position) === code) position += 1;
    else return undefined;
  }
  return position;
}

const NAMED_REFERENCES: Readonly<Record<string, string>> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
};

/** An HTML character reference: `&amp;` and its kin, `&#38;`, `&#x26;` (an error page's echo). */
function htmlReferenceEnd(text: string, at: number, character: string): number | undefined {
  const match = /^&(#[xX][0-9a-fA-F]{1,6}|#[0-9]{1,7}|[a-zA-Z]{2,4});/.exec(text.slice(at, at + 12));
  if (!match) return undefined;
  const name = match[1] as string;
  const value =
    name.startsWith("#x") || name.startsWith("#X")
      ? parseInt(name.slice(2), 16)
      : name.startsWith("#")
        ? parseInt(name.slice(1), 10)
        : NAMED_REFERENCES[name]?.codePointAt(0);
  return value === character.codePointAt(0) ? at + match[0].length : undefined;
}

/**
 * The characters that can start a written form of `character`: itself, `%`, `\`, `&`, and `+` for
 * a space. A position that starts with none of them cannot start an echo.
 */
export function starters(character: string): ReadonlySet<string> {
  const set = new Set([character[0] as string, "%", "\\", "&"]);
  if (character === " ") set.add("+");
  return set;
}
