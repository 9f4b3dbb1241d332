/**
 * The documentation's own links hold: every relative link in README.md and docs/** names a file or
 * directory of the repository, and every `#fragment` a heading of the page it points at (GitHub's
 * anchors). Links inside code are not links; links with a scheme (https:, github:) are not checked.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { markdownFiles as documentationFiles } from "../../bench/write-table";

const repoRoot = path.resolve(__dirname, "../..");

/** The text without fenced code blocks and inline code spans (line breaks kept for messages). */
function prose(markdown: string): string {
  return markdown
    .replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, (block) => block.replace(/[^\n]/g, " "))
    .replace(/`[^`\n]*`/g, (span) => " ".repeat(span.length));
}

/** GitHub's anchor for a heading's text: lower case, punctuation dropped, each space a hyphen. */
function slug(heading: string): string {
  return heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .trim()
    .replace(/\s/g, "-");
}

/** Every anchor of a Markdown file, with GitHub's `-1`, `-2` suffixes for repeated headings. */
function anchorsOf(file: string): Set<string> {
  const text = readFileSync(file, "utf8").replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, "");
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const match of text.matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = slug(match[1] ?? "");
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

/** The broken relative links of one file, each as `file:line: target (why)`. */
function brokenLinks(file: string): string[] {
  const text = prose(readFileSync(file, "utf8"));
  const broken: string[] = [];
  for (const match of text.matchAll(/\]\(([^)\s]+)\)/g)) {
    const target = match[1] ?? "";
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
    const line = text.slice(0, match.index).split("\n").length;
    const where = `${path.relative(repoRoot, file)}:${line}: ${target}`;
    const [pathPart = "", fragment] = target.split("#", 2);
    const resolved = pathPart === "" ? file : path.resolve(path.dirname(file), decodeURI(pathPart));
    if (!existsSync(resolved)) {
      broken.push(`${where} (no such file)`);
      continue;
    }
    if (fragment === undefined) continue;
    if (statSync(resolved).isDirectory() || !resolved.endsWith(".md")) {
      broken.push(`${where} (an anchor into something that is not a Markdown file)`);
    } else if (!anchorsOf(resolved).has(fragment)) {
      broken.push(`${where} (no such heading)`);
    }
  }
  return broken;
}

describe("the documentation's links", () => {
  it("slugs headings as GitHub does", () => {
    expect(slug("`DeviceFleet` — id: the fleet's name")).toBe("devicefleet--id-the-fleets-name");
    expect(slug("Random operations (`npm run soak`)")).toBe("random-operations-npm-run-soak");
    expect(slug("A Python stack against the emulator, without Node.js")).toBe(
      "a-python-stack-against-the-emulator-without-nodejs",
    );
  });

  it("covers the README and every page of docs/", () => {
    const files = documentationFiles().map((file) => path.relative(repoRoot, file));
    expect(files).toContain("README.md");
    expect(files).toContain(path.join("docs", "_index.md"));
    expect(files).toContain(path.join("docs", "installation-configuration.md"));
  });

  it("resolve: every relative link names a file that exists, every anchor a heading of it", () => {
    expect(documentationFiles().flatMap(brokenLinks)).toEqual([]);
  });
});
