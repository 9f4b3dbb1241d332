/**
 * A Pulumi YAML program through `pulumi up` (runtime: yaml, Pulumi YAML's own language host), on
 * the provider plugin of the packed package: the lifecycle every language runs
 * (`support/language-lifecycle.ts`), `getDevice` as an `fn::invoke`.
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { describe, inject } from "vitest";
import { lifecycleSteps } from "./support/language-lifecycle";
import { createPluginProject, pluginDir, pluginProjectYaml } from "./support/plugin-toolchain";
import { yamlLifecycleProgram } from "./support/yaml-programs";

const PROJECT = "plugin-yaml";

describe("a YAML program through `pulumi up`, on the plugin", () => {
  lifecycleSteps({
    language: "YAML",
    project: PROJECT,
    prefix: "yaml",
    create: (initial) =>
      createPluginProject(
        { name: PROJECT, runtime: "yaml", files: {}, yamlProgram: yamlLifecycleProgram(initial) },
        inject("e2e"),
      ),
    write(project, resources) {
      const header = pluginProjectYaml(PROJECT, "yaml", pluginDir(inject("e2e").nodeModules));
      writeFileSync(path.join(project.dir, "Pulumi.yaml"), header + yamlLifecycleProgram(resources));
    },
  });
});
