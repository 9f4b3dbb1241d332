/**
 * Characters no device name, project, tag or description should carry: control characters (NUL,
 * ESC and the terminal sequences it starts, a line break in a name), the bidirectional overrides
 * and isolates that make text display in another order than it is stored (U+202E "RIGHT-TO-LEFT
 * OVERRIDE" turns `abc.exe` into what reads as `exe.cba`, the Trojan Source trick), and U+FFFD,
 * which a reader puts where bytes could not be decoded — a sign the text came from a file that is
 * not UTF-8. The platform accepts them all and shows them to everyone, so the provider and the
 * inventory reader refuse them before anything is written, naming the field and the character.
 */

/** Whether line breaks and tabs are allowed (a description's lines), or no control character at all. */
export type TextKind = "line" | "multiline";

const BIDI = /[\u202A-\u202E\u2066-\u2069]/u;
// Control characters are what these two look for.
// eslint-disable-next-line no-control-regex
const C0_C1 = /[\u0000-\u001F\u007F-\u009F]/u;
// eslint-disable-next-line no-control-regex
const C0_C1_BUT_LINES = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/u;
const REPLACEMENT = /\uFFFD/u;

const NAMES: Readonly<Record<number, string>> = {
  0x00: "NUL",
  0x09: "a tab",
  0x0a: "a line break",
  0x0d: "a carriage return",
  0x1b: "ESC (a terminal escape sequence)",
  0x7f: "DEL",
  0x202a: "LEFT-TO-RIGHT EMBEDDING",
  0x202b: "RIGHT-TO-LEFT EMBEDDING",
  0x202c: "POP DIRECTIONAL FORMATTING",
  0x202d: "LEFT-TO-RIGHT OVERRIDE",
  0x202e: "RIGHT-TO-LEFT OVERRIDE",
  0x2066: "LEFT-TO-RIGHT ISOLATE",
  0x2067: "RIGHT-TO-LEFT ISOLATE",
  0x2068: "FIRST STRONG ISOLATE",
  0x2069: "POP DIRECTIONAL ISOLATE",
};

function describe(character: string): string {
  const code = character.codePointAt(0) as number;
  const hex = `U+${code.toString(16).toUpperCase().padStart(4, "0")}`;
  const name = NAMES[code];
  return name === undefined ? `control character ${hex}` : `${hex} ${name}`;
}

/**
 * Why `value` holds a character that must not reach the platform, or undefined. The reason names
 * the character and where it is (its 1-based position), never repeats the whole value (which the
 * character may make unreadable).
 */
export function unsafeCharacterProblem(value: string, kind: TextKind = "line"): string | undefined {
  const controls = kind === "line" ? C0_C1 : C0_C1_BUT_LINES;
  for (const [rule, reason] of [
    [controls, "control characters are not allowed"],
    [BIDI, "bidirectional overrides make text display in another order than it is stored"],
    [
      REPLACEMENT,
      "it marks bytes that could not be decoded: the text came from a file that is not UTF-8 (save it as UTF-8)",
    ],
  ] as const) {
    const match = rule.exec(value);
    if (match) {
      const position = [...value.slice(0, match.index)].length + 1;
      const what = match[0] === "\uFFFD" ? "U+FFFD REPLACEMENT CHARACTER" : describe(match[0]);
      return `contains ${what} at character ${position}; ${reason}`;
    }
  }
  return undefined;
}
