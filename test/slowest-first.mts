/**
 * The order `npm test` starts its files in: the e2e files that took longest in the last measured
 * `.ci/run` first, longest first, so that no long file starts near the end of a run while the
 * other workers sit idle (a 480-second file started last made a run of its length longer).
 * Files without a figure run after them, larger files first, as vitest's own sequencer orders files
 * it has no timing for; projects keep vitest's order (e2e, then integration, then unit: the short
 * unit and integration files fill the workers at the end).
 *
 * A clean clone has no vitest cache, so the figures are kept here: `slowest-first.json`, seconds of
 * each file's run in a clean-clone `.ci/run` (the commit is named in the file). They order files
 * only; a wrong figure makes a run slower, never wrong.
 */
import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

interface Figures {
  /** The commit whose `.ci/run` measured the figures. */
  measuredAt: string;
  /** Test file, relative to the repository → seconds. */
  seconds: Record<string, number>;
}

const figures = JSON.parse(
  readFileSync(path.join(import.meta.dirname, "slowest-first.json"), "utf8"),
) as Figures;
const root = path.resolve(import.meta.dirname, "..");

function secondsOf(spec: TestSpecification): number | undefined {
  return figures.seconds[path.relative(root, spec.moduleId).split(path.sep).join("/")];
}

function sizeOf(spec: TestSpecification): number {
  try {
    return statSync(spec.moduleId).size;
  } catch {
    return 0;
  }
}

export default class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    return [...files].sort((a, b) => {
      if (a.project.name !== b.project.name) return a.project.name < b.project.name ? -1 : 1;
      const [secondsA, secondsB] = [secondsOf(a), secondsOf(b)];
      if (secondsA !== undefined || secondsB !== undefined) return (secondsB ?? -1) - (secondsA ?? -1);
      return sizeOf(b) - sizeOf(a);
    });
  }
}
