/**
 * A Go program through `pulumi up` (runtime: go, Pulumi's own Go language host, which builds the
 * program with `go build`) on the generated Go SDK as users `go get` it (`support/go-sdk-module.ts`),
 * with Pulumi's Go SDK at the CLI's version: the lifecycle every language runs
 * (`support/language-lifecycle.ts`), then every Go example of schema.json in the same module and on
 * the same stack (`support/schema-examples.ts`). The go commands use the machine's module and build
 * caches, so only the first run on a machine compiles Pulumi's Go SDK.
 */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe } from "vitest";
import { goGetSdk, releaseGoSdk } from "./support/go-sdk-module";
import { lifecycleSteps } from "./support/language-lifecycle";
import { SPEC_FILE, writeSpecFile } from "./support/plugin-lifecycle";
import { createPluginProject } from "./support/plugin-toolchain";
import { exampleSteps } from "./support/schema-examples";
import { e2e } from "./support/e2e-context";

const PROJECT = "plugin-go";
const PROGRAM = path.join(__dirname, "go", "lifecycle", "main.go");

describe("Go programs through `pulumi up`, on the Go SDK", () => {
  const lifecycle = lifecycleSteps({
    language: "Go",
    project: PROJECT,
    prefix: "go",
    async create(initial) {
      const context = e2e();
      const release = releaseGoSdk(context.workDir);
      const project = await createPluginProject(
        {
          name: PROJECT,
          runtime: "go",
          files: {
            "main.go": readFileSync(PROGRAM, "utf8"),
            [SPEC_FILE]: JSON.stringify({ resources: initial }),
          },
          env: () => release.env,
        },
        context,
      );
      goGetSdk(project.dir, release);
      return project;
    },
    write: (project, resources) => writeSpecFile(project.dir, resources),
  });
  exampleSteps(lifecycle, "go", (project, program) =>
    writeFileSync(path.join(project.dir, "main.go"), program),
  );
});
