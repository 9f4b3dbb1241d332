/**
 * `PulumiProject` bound to the e2e global setup's toolchain, package and emulator.
 */

import { PulumiProject, type ProjectOptions } from "./pulumi-project";
import { e2e } from "./e2e-context";

/** Creates a project against the e2e run's CLI, installed package and emulator. */
export function createProject(options: ProjectOptions): Promise<PulumiProject> {
  return PulumiProject.create(options, e2e());
}
