/**
 * The README is the front page: what the project is, how to start, where to read on. Details live
 * in docs/, and a README that keeps growing (147 lines, then 186) stops being read; the limit is
 * the one the project set for it.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";

const README_MAX_LINES = 150;

it(`keeps README.md under ${README_MAX_LINES} lines`, () => {
  const lines = readFileSync(path.resolve(__dirname, "../../README.md"), "utf8").trimEnd().split("\n").length;
  expect(lines).toBeLessThan(README_MAX_LINES);
});
