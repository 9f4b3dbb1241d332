/**
 * A pace of its own for a bench contender that talks to a platform. The provider keeps one pace
 * per application on the machine (provider/platform-access/pace-store.ts), keyed by the client id,
 * and every emulator of this machine — the bench's, every test's, another bench's — answers to the
 * same client id. Without a pace of its own, a rate-limited test running beside the bench leaves a
 * reduced pace that the contender's requests then keep: a batch's 10,000 deletes went at about 60 a
 * second, and its row measured the neighbours. Each emulator is an application of its own, and
 * paces as one.
 */
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";

/** The environment that gives the commands of one contender a fresh pace directory. */
export function ownPaceEnv(): { DEVPLATFORM_PACE_DIR: string } {
  return { DEVPLATFORM_PACE_DIR: mkdtempSync(path.join(os.tmpdir(), "bench-pace-")) };
}
