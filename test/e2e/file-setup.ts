/**
 * Per e2e file: an emulator of its own on loopback, so that files run side by side and each one's
 * request counters count only its own requests, and a pace directory of its own.
 */
import { mkdtempSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, inject } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { setFileEmulatorUrl } from "./support/e2e-context";

let emulator: RunningEmulator | undefined;

// The machine's pace is kept per application, by its client id, and every file's emulator issues
// the same one (demo-client): without a pace directory of its own, one file's rate-limit refusals
// would slow the files running beside it, and a test resetting its pace would reset theirs. Each
// file's emulator is a platform of its own, so its processes keep a pace of their own, as on a
// machine of their own (a fresh directory per file: a worker runs files one after another, and a
// file's pace is not the next one's); a test that sets DEVPLATFORM_PACE_DIR for a stack still does.
process.env.DEVPLATFORM_PACE_DIR = mkdtempSync(path.join(inject("e2e").workDir, "pace-"));

beforeAll(async () => {
  emulator = await startEmulator({ control: true });
  setFileEmulatorUrl(emulator.url);
});

afterAll(async () => {
  setFileEmulatorUrl(undefined);
  await emulator?.stop();
});
