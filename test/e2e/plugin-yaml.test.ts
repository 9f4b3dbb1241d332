/**
 * A Pulumi YAML program through `pulumi up` (runtime: yaml, Pulumi YAML's own language host), on
 * the provider plugin of the packed package: the lifecycle every language runs
 * (`support/language-lifecycle.ts`), `getDevice` as an `fn::invoke`; then every YAML example of
 * schema.json on the same stack (`support/schema-examples.ts`).
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { describe } from "vitest";
import { lifecycleSteps } from "./support/language-lifecycle";
import { exampleSteps } from "./support/schema-examples";
import { createPluginProject, pluginDir, pluginProjectYaml } from "./support/plugin-toolchain";
import { yamlLifecycleProgram } from "./support/yaml-programs";
import { e2e } from "./support/e2e-context";

const PROJECT = "plugin-yaml";

/** A YAML program is its Pulumi.yaml: the project's header and the program's sections. */
function writeProgram(dir: string, sections: string): void {
  const header = pluginProjectYaml(PROJECT, "yaml", pluginDir(e2e().nodeModules));
  writeFileSync(path.join(dir, "Pulumi.yaml"), header + sections);
}

describe("YAML programs through `pulumi up`, on the plugin", () => {
  const lifecycle = lifecycleSteps({
    language: "YAML",
    project: PROJECT,
    prefix: "yaml",
    create: (initial) =>
      createPluginProject(
        { name: PROJECT, runtime: "yaml", files: {}, yamlProgram: yamlLifecycleProgram(initial) },
        e2e(),
      ),
    write: (project, resources) => writeProgram(project.dir, yamlLifecycleProgram(resources)),
  });
  exampleSteps(lifecycle, "yaml", (project, program) => writeProgram(project.dir, program));
});
