/**
 * The runtime of the macOS archives, on the machine that can run it: the plugin compiled with Bun
 * for linux-amd64, by the same build as darwin-amd64 and darwin-arm64 (scripts/plugin-executable,
 * `bun build --compile` of the same bundle, only `--target` differs), runs the lifecycle every
 * language runs (`support/language-lifecycle.ts`) in a YAML program, with the same request counts
 * as the Node.js executable and the npm launcher. macOS itself cannot be run here: what this file
 * proves is that the plugin on Bun serves the engine as the plugin on Node.js does.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { buildArchives } from "../../scripts/plugin-executable/build";
import { bunTargetOf } from "../../scripts/plugin-executable/targets";
import { lifecycleSteps } from "./support/language-lifecycle";
import { pluginProjectYaml } from "./support/plugin-toolchain";
import { PulumiProject } from "./support/pulumi-project";
import { yamlLifecycleProgram } from "./support/yaml-programs";
import { e2e } from "./support/e2e-context";

const PROJECT = "plugin-bun";
let pluginDir = "";

/** A YAML program is its Pulumi.yaml: the project's header, naming the Bun executable's directory, and the program. */
function writeProgram(dir: string, sections: string): void {
  writeFileSync(path.join(dir, "Pulumi.yaml"), pluginProjectYaml(PROJECT, "yaml", pluginDir) + sections);
}

describe("the plugin compiled with Bun (the macOS archives' runtime), for linux-amd64", () => {
  beforeAll(async () => {
    const out = mkdtempSync(path.join(e2e().workDir, "bun-archive-"));
    const [archive] = await buildArchives({
      outDir: out,
      targets: [bunTargetOf("linux-amd64", "linux-x64")],
    });
    pluginDir = path.join(out, "plugin");
    mkdirSync(pluginDir);
    execFileSync("tar", ["-xzf", archive as string, "-C", pluginDir]);
  });

  it("is a Bun executable that answers --version without Node.js", () => {
    const executable = path.join(pluginDir, "pulumi-resource-devplatform");
    const env = { PATH: "/usr/bin:/bin", BUN_DEBUG_QUIET_LOGS: "1" };
    expect(execFileSync(executable, ["--version"], { encoding: "utf8", env }).trim()).toMatch(
      /^\d+\.\d+\.\d+$/,
    );
    // Bun's compiled executables answer to BUN_BE_BUN by running Bun itself.
    const runtime = execFileSync(executable, ["--version"], {
      encoding: "utf8",
      env: { ...env, BUN_BE_BUN: "1" },
    });
    expect(runtime.trim()).toBe("1.4.5");
  });

  lifecycleSteps({
    language: "YAML on the Bun executable",
    project: PROJECT,
    prefix: "bun",
    create: async (initial) => {
      const context = e2e();
      const dir = mkdtempSync(path.join(context.workDir, `${PROJECT}-`));
      writeProgram(dir, yamlLifecycleProgram(initial));
      return PulumiProject.open(dir, PROJECT, context);
    },
    write: (project, resources) => writeProgram(project.dir, yamlLifecycleProgram(resources)),
  });
});
