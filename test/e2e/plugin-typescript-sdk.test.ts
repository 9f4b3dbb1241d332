/**
 * A TypeScript program on the SDK generated from schema.json (`@devplatform/pulumi`, compiled and
 * packed as a user installs it), run by the real CLI through the provider plugin's launcher from the
 * packed package (Pulumi.yaml `plugins.providers`): the lifecycle every language runs
 * (`support/language-lifecycle.ts`).
 */
import { describe, inject } from "vitest";
import { lifecycleSteps } from "./support/language-lifecycle";
import { SPEC_FILE, writeSpecFile } from "./support/plugin-lifecycle";
import { NODE_SDK_PROGRAM } from "./support/plugin-sdk-programs";
import { createPluginProject, installGeneratedNodeSdk } from "./support/plugin-toolchain";
import { TEST_TSCONFIG } from "./support/pulumi-project";

const PROJECT = "plugin-ts-sdk";

describe("a TypeScript program on the generated SDK, through the plugin", () => {
  lifecycleSteps({
    language: "TypeScript",
    project: PROJECT,
    prefix: "ts-sdk",
    create(initial) {
      const e2e = inject("e2e");
      const nodeModules = installGeneratedNodeSdk(e2e.workDir, e2e.tarball);
      return createPluginProject(
        {
          name: PROJECT,
          runtime: "nodejs",
          files: {
            "index.ts": NODE_SDK_PROGRAM,
            "package.json": JSON.stringify({ name: PROJECT, private: true }),
            "tsconfig.json": TEST_TSCONFIG,
            [SPEC_FILE]: JSON.stringify({ resources: initial }),
          },
        },
        { ...e2e, nodeModules },
      );
    },
    write: (project, resources) => writeSpecFile(project.dir, resources),
  });
});
