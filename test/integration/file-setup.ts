/**
 * Per integration file: a pace directory of its own, removed when the file ends.
 *
 * The machine's pace is kept per application, by its client id, and every emulator these files
 * start issues the same one (demo-client). Without a directory of their own, one file's refusals
 * (a rate-limited emulator, a refused answer on purpose) left a lowered pace in the machine's
 * directory that the files beside it and after it kept — and a developer's own later `pulumi up`s
 * too. A test that sets DEVPLATFORM_PACE_DIR itself still does.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll } from "vitest";

const own = mkdtempSync(path.join(os.tmpdir(), "devplatform-integration-pace-"));
process.env.DEVPLATFORM_PACE_DIR = own;

afterAll(() => {
  if (process.env.DEVPLATFORM_PACE_DIR === own) delete process.env.DEVPLATFORM_PACE_DIR;
  rmSync(own, { recursive: true, force: true });
});
