/**
 * e2e global setup: the toolchain (Pulumi CLI, this package packed and installed as users install
 * it) and one emulator on loopback, shared by the e2e files, which run one at a time.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node" with { "resolution-mode": "import" };
import { startEmulator } from "../../emulator";
import { prepareToolchain } from "./support/toolchain";

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const workDir = mkdtempSync(path.join(tmpdir(), "devplatform-e2e-"));
  const toolchain = prepareToolchain(workDir);
  const emulator = await startEmulator({ control: true });
  project.provide("e2e", { ...toolchain, workDir, emulatorUrl: emulator.url });
  return async () => {
    await emulator.stop();
  };
}

declare module "vitest" {
  export interface ProvidedContext {
    e2e: { pulumiDir: string; nodeModules: string; workDir: string; emulatorUrl: string; tarball: string };
  }
}
