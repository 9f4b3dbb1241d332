/**
 * A Python program through `pulumi up` (runtime: python, Pulumi's own Python language host) in the
 * virtual environment its Pulumi.yaml names as users write it (`options: { virtualenv: venv }`,
 * relative to the project), holding `pulumi` from PyPI at the CLI's version and the generated
 * `pulumi_devplatform`: the lifecycle every language runs (`support/language-lifecycle.ts`), then
 * every Python example of schema.json on the same stack (`support/schema-examples.ts`).
 *
 * The provisioned host (sdk v3.68.0) reads `virtualenv` only from a command-line flag, which CLI
 * 3.259 no longer passes (it hands runtime options to hosts over RPC), so the environment is
 * activated as `source venv/bin/activate` does; the program reports the Python that ran it.
 */
import { readFileSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect } from "vitest";
import { lifecycleSteps } from "./support/language-lifecycle";
import { SPEC_FILE, writeSpecFile } from "./support/plugin-lifecycle";
import { exampleSteps } from "./support/schema-examples";
import { activatedVirtualenv, createPluginProject, provisionPython } from "./support/plugin-toolchain";
import { e2e } from "./support/e2e-context";

const PROJECT = "plugin-python";
const PROGRAM = path.join(__dirname, "python", "lifecycle", "__main__.py");
/** The option as users write it: a directory of the project. */
const VIRTUALENV = "venv";

describe("Python programs through `pulumi up`, in the virtualenv their Pulumi.yaml names", () => {
  const lifecycle = lifecycleSteps({
    language: "Python",
    project: PROJECT,
    prefix: "py",
    async create(initial) {
      const project = await createPluginProject(
        {
          name: PROJECT,
          runtime: { name: "python", options: { virtualenv: VIRTUALENV } },
          files: {
            "__main__.py": readFileSync(PROGRAM, "utf8"),
            [SPEC_FILE]: JSON.stringify({ resources: initial }),
          },
          env: (dir) => activatedVirtualenv(dir, VIRTUALENV),
        },
        e2e(),
      );
      // The environment scripts/provision-python.sh made (cached per SDK), where the option points.
      symlinkSync(provisionPython(), path.join(project.dir, VIRTUALENV), "dir");
      return project;
    },
    write: (project, resources) => writeSpecFile(project.dir, resources),
    checkOutputs(project, outputs) {
      expect(outputs["pythonPrefix"]).toBe(path.join(project.dir, VIRTUALENV));
    },
  });
  exampleSteps(lifecycle, "python", (project, program) =>
    writeFileSync(path.join(project.dir, "__main__.py"), program),
  );
});
