import { defineConfig } from "vitest/config";
import SlowestFirst from "./test/slowest-first.mts";

/**
 * Files run at once, in every project alike: projects of one `maxWorkers` share one queue, so the
 * unit and integration files fill the gaps the e2e files leave while they wait on the CLI, the
 * engine and the emulator (with 2 e2e files at a time a 2-core machine was idle 20–50% of the time,
 * and the unit and integration files ran one by one after them: 11 minutes of a 53-minute run).
 */
const WORKERS = 3;

export default defineConfig({
  test: {
    sequence: { sequencer: SlowestFirst },
    projects: [
      {
        test: { name: "unit", include: ["test/unit/**/*.test.ts"], testTimeout: 10_000, maxWorkers: WORKERS },
      },
      {
        test: {
          name: "integration",
          include: ["test/integration/**/*.test.ts"],
          // Each file keeps a pace of its own (file-setup.ts), as each e2e file does.
          setupFiles: ["test/integration/file-setup.ts"],
          maxWorkers: WORKERS,
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: "e2e",
          include: ["test/e2e/**/*.test.ts"],
          globalSetup: ["test/e2e/global-setup.ts"],
          // Each file has an emulator of its own (file-setup.ts), so its counters count its own
          // requests, whatever runs beside it.
          setupFiles: ["test/e2e/file-setup.ts"],
          maxWorkers: WORKERS,
          testTimeout: 900_000,
          hookTimeout: 900_000,
        },
      },
    ],
  },
});
