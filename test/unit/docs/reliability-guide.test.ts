/**
 * The Reliability guide keeps one section per guarantee, each naming its test: every `###` section,
 * and every `##` section without `###` sections of its own, has a line `Test: \`path\`, …` naming at
 * least one file under test/ that exists. A guarantee added without naming its test, or a test
 * renamed or removed from under the guide, fails here.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(__dirname, "../../..");
const GUIDE = path.join(ROOT, "docs/guides/reliability.md");

interface Section {
  heading: string;
  level: number;
  lines: string[];
}

/** The guide's sections, each with its lines up to the next heading (fenced code skipped). */
function sections(text: string): Section[] {
  const found: Section[] = [];
  let fenced = false;
  for (const line of text.split("\n")) {
    if (line.startsWith("```")) fenced = !fenced;
    const heading = fenced ? null : /^(#{2,3}) (.+)$/.exec(line);
    if (heading)
      found.push({ heading: heading[2] as string, level: (heading[1] as string).length, lines: [] });
    else found.at(-1)?.lines.push(line);
  }
  return found;
}

/** The sections that state a guarantee: every `###`, and every `##` with no `###` under it. */
function guaranteeSections(all: Section[]): Section[] {
  return all.filter((section, i) => section.level === 3 || all[i + 1]?.level !== 3);
}

/** The paths a section's `Test:` lines name. */
function namedTests(section: Section): string[] {
  return section.lines
    .filter((line) => line.startsWith("Test: "))
    .flatMap((line) => [...line.matchAll(/`([^`]+)`/g)].map((match) => match[1] as string));
}

describe("the Reliability guide: one section per guarantee, each naming its test", () => {
  const all = sections(readFileSync(GUIDE, "utf8"));

  it("has its guarantees as sections (at least 30)", () => {
    expect(guaranteeSections(all).length).toBeGreaterThanOrEqual(30);
  });

  it("names at least one test in every section, each a file under test/ that exists", () => {
    const problems: string[] = [];
    for (const section of guaranteeSections(all)) {
      const named = namedTests(section);
      if (named.length === 0) problems.push(`"${section.heading}" names no test (a line "Test: \`test/…\`")`);
      for (const file of named) {
        if (!file.startsWith("test/")) problems.push(`"${section.heading}": ${file} is not under test/`);
        else if (!existsSync(path.join(ROOT, file)))
          problems.push(`"${section.heading}": ${file} does not exist`);
      }
    }
    expect(problems).toEqual([]);
  });

  it("finds a section without its test (the check itself can fail)", () => {
    const broken = sections("## A\n\nText.\n\n### B\n\nTest: `test/nowhere.test.ts`.\n\n### C\n\nNo test.\n");
    const named = guaranteeSections(broken).map((section) => [section.heading, namedTests(section)]);
    expect(named).toEqual([
      ["B", ["test/nowhere.test.ts"]],
      ["C", []],
    ]);
  });
});
