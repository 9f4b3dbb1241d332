/**
 * `PulumiProject` bound to the e2e global setup's toolchain, package and emulator.
 */
import { inject } from "vitest";
import { PulumiProject, type ProjectOptions } from "./pulumi-project";

/** Creates a project against the e2e run's CLI, installed package and emulator. */
export function createProject(options: ProjectOptions): Promise<PulumiProject> {
  return PulumiProject.create(options, inject("e2e"));
}
