/**
 * What an e2e file runs against: the run's toolchain (the global setup's, shared by every file)
 * and an emulator of the file's own (the setup file's), so that files can run side by side with
 * exact request counts.
 */
import { inject } from "vitest";

export interface E2eContext {
  pulumiDir: string;
  nodeModules: string;
  workDir: string;
  tarball: string;
  /** This file's emulator. */
  emulatorUrl: string;
}

let fileEmulatorUrl: string | undefined;

/** Set by the setup file once this file's emulator listens. */
export function setFileEmulatorUrl(url: string | undefined): void {
  fileEmulatorUrl = url;
}

/** The run's toolchain with this file's emulator. */
export function e2e(): E2eContext {
  if (fileEmulatorUrl === undefined)
    throw new Error("the e2e file's emulator is not running (test/e2e/file-setup.ts)");
  return { ...inject("e2e"), emulatorUrl: fileEmulatorUrl };
}
