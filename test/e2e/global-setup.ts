/**
 * e2e global setup: the toolchain (Pulumi CLI and Pulumi's own hosts, this package packed and
 * installed as users install it), shared by the e2e files. Each file starts an emulator of its own
 * (file-setup.ts), so files run side by side.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node" with { "resolution-mode": "import" };
import { prepareToolchain, removeWorkDir } from "./support/toolchain";

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const workDir = mkdtempSync(path.join(tmpdir(), "devplatform-e2e-"));
  const toolchain = prepareToolchain(workDir);
  project.provide("e2e", { ...toolchain, workDir });
  // The toolchain, projects and states grow to gigabytes per run: a run that left them behind
  // filled a disk after about 90. `.ci/run` fails when one is left.
  return async () => removeWorkDir(workDir);
}

declare module "vitest" {
  export interface ProvidedContext {
    e2e: { pulumiDir: string; nodeModules: string; workDir: string; tarball: string };
  }
}
