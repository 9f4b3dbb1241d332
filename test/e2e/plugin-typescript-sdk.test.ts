/**
 * A TypeScript program on the SDK generated from schema.json (`@devplatform/pulumi`, compiled and
 * packed as a user installs it), run by the real CLI through the provider plugin's launcher from the
 * packed package (Pulumi.yaml `plugins.providers`): the lifecycle every language runs
 * (`support/language-lifecycle.ts`), then every TypeScript example of schema.json on the same stack
 * (`support/schema-examples.ts`), type-checked first (the runs themselves are transpile-only).
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, it } from "vitest";
import { lifecycleSteps } from "./support/language-lifecycle";
import { SPEC_FILE, writeSpecFile } from "./support/plugin-lifecycle";
import { NODE_SDK_PROGRAM } from "./support/plugin-sdk-programs";
import { createPluginProject, installGeneratedNodeSdk } from "./support/plugin-toolchain";
import { TEST_TSCONFIG } from "./support/pulumi-project";
import { exampleSteps, schemaExamples } from "./support/schema-examples";
import { e2e } from "./support/e2e-context";

const PROJECT = "plugin-ts-sdk";

describe("TypeScript programs on the generated SDK, through the plugin", () => {
  const lifecycle = lifecycleSteps({
    language: "TypeScript",
    project: PROJECT,
    prefix: "ts-sdk",
    create(initial) {
      const context = e2e();
      const nodeModules = installGeneratedNodeSdk(context.workDir, context.tarball);
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
        { ...context, nodeModules },
      );
    },
    write: (project, resources) => writeSpecFile(project.dir, resources),
  });

  it("type-checks every TypeScript example of the schema as a user's strict project does", () => {
    const dir = path.join(lifecycle.project().dir, "examples-type-check");
    mkdirSync(dir);
    schemaExamples("typescript").forEach((example, index) =>
      writeFileSync(path.join(dir, `example-${index}.ts`), example.program),
    );
    const tsc = path.join(lifecycle.project().dir, "node_modules", "typescript", "bin", "tsc");
    // The project's tsconfig.json (strict) covers every .ts file of the project, the examples too.
    execFileSync(process.execPath, [tsc, "--noEmit", "-p", lifecycle.project().dir], { stdio: "inherit" });
  });

  exampleSteps(lifecycle, "typescript", (project, program) =>
    writeFileSync(path.join(project.dir, "index.ts"), program),
  );
});
