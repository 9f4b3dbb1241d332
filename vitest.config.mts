import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    projects: [
      {
        test: { name: "unit", include: ["test/unit/**/*.test.ts"], testTimeout: 10_000 },
      },
      {
        test: {
          name: "integration",
          include: ["test/integration/**/*.test.ts"],
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
          // requests: two files run side by side, as many as a 2-core machine carries.
          setupFiles: ["test/e2e/file-setup.ts"],
          maxWorkers: 2,
          testTimeout: 900_000,
          hookTimeout: 900_000,
        },
      },
    ],
  },
});
