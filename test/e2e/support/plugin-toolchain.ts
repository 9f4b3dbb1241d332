/**
 * What the plugin's e2e tests run on beyond the shared toolchain: the provider plugin's launcher as
 * the packed package installs it, the generated Node.js SDK compiled and packed as a user installs
 * it, the Python virtual environment `scripts/provision-python.sh` makes and its activation, and
 * projects (in any runtime) whose Pulumi.yaml finds the plugin through `plugins.providers`.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import path from "node:path";
import { PulumiProject, type PulumiContext } from "./pulumi-project";
import { PULUMI_SDK_VERSION } from "./versions";

const repoRoot = path.resolve(__dirname, "../../..");

function run(command: string, args: string[], cwd = repoRoot): string {
  return execFileSync(command, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
}

/** The directory holding the launcher `pulumi-resource-devplatform` of the installed package. */
export function pluginDir(nodeModules: string): string {
  return path.join(nodeModules, "pulumi-devplatform", "bin");
}

/** A project's runtime as Pulumi.yaml spells it: a name, or a name with its options. */
export type ProjectRuntime =
  "nodejs" | "python" | "go" | "yaml" | { name: "python"; options: { virtualenv: string } };

/** Pulumi.yaml of a project that runs the plugin from `dir` (no plugin install, no PATH lookup). */
export function pluginProjectYaml(name: string, runtime: ProjectRuntime, dir: string): string {
  const runtimeLines =
    typeof runtime === "string"
      ? [`runtime: ${runtime}`]
      : [
          `runtime:`,
          `  name: ${runtime.name}`,
          `  options:`,
          ...Object.entries(runtime.options).map(([key, value]) => `    ${key}: ${JSON.stringify(value)}`),
        ];
  return [
    `name: ${name}`,
    ...runtimeLines,
    `plugins:`,
    `  providers:`,
    `    - name: devplatform`,
    `      path: ${JSON.stringify(dir)}`,
    ``,
  ].join("\n");
}

/**
 * Packs the generated SDK as it is published (`scripts/package-sdks.sh --nodejs`), and installs
 * the tarball beside the packed pulumi-devplatform (for its launcher) into `workDir/sdk-template`;
 * returns that node_modules.
 */
export function installGeneratedNodeSdk(workDir: string, packageTarball: string): string {
  const packDir = path.join(workDir, "sdk-pack");
  const sdkTarball = run("bash", ["scripts/package-sdks.sh", packDir, "--nodejs"]).trim();
  if (!sdkTarball.endsWith(".tgz")) throw new Error(`package-sdks.sh printed ${sdkTarball}, not a tarball`);
  const templateDir = path.join(workDir, "sdk-template");
  mkdirSync(templateDir, { recursive: true });
  writeFileSync(
    path.join(templateDir, "package.json"),
    JSON.stringify({
      name: "devplatform-sdk-template",
      private: true,
      dependencies: {
        "@devplatform/pulumi": `file:${sdkTarball}`,
        "pulumi-devplatform": `file:${packageTarball}`,
        "@pulumi/pulumi": PULUMI_SDK_VERSION,
        typescript: "~5.9.3",
        "ts-node": "^10.9.2",
        "@types/node": "^22.19.0",
      },
    }),
  );
  run("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error"], templateDir);
  return path.join(templateDir, "node_modules");
}

/** The virtual environment with `pulumi` from PyPI and the generated `pulumi_devplatform`. */
export function provisionPython(): string {
  return run("bash", ["scripts/provision-python.sh"]).trim();
}

/**
 * The environment of a shell in which the virtual environment `virtualenv` (Pulumi.yaml's option,
 * relative to the project as Pulumi resolves it) is activated, as `source venv/bin/activate` does:
 * its `bin` first on PATH. Pulumi's Python host v3.68 reads the option only from a command-line
 * flag that CLI 3.259 no longer passes, and then runs the `python3` it finds on PATH.
 */
export function activatedVirtualenv(projectDir: string, virtualenv: string): Record<string, string> {
  const dir = path.resolve(projectDir, virtualenv);
  return { PATH: path.join(dir, "bin"), VIRTUAL_ENV: dir };
}

/** Files of a plugin project beside its Pulumi.yaml. */
export interface PluginProjectOptions {
  name: string;
  runtime: ProjectRuntime;
  files: Record<string, string>;
  /** A YAML program's sections (`resources:`, `variables:`, `outputs:`), appended to Pulumi.yaml. */
  yamlProgram?: string;
  /** Environment of every command, given the project's directory (see {@link PulumiProject}). */
  env?: (projectDir: string) => Record<string, string>;
}

/**
 * Writes a project that runs the plugin from `context.nodeModules`' package, then opens it (the
 * `dev` stack with the emulator's URL and credentials as the provider's configuration).
 */
export async function createPluginProject(
  options: PluginProjectOptions,
  context: PulumiContext,
): Promise<PulumiProject> {
  const dir = mkdtempSync(path.join(context.workDir, `${options.name}-`));
  const yaml = pluginProjectYaml(options.name, options.runtime, pluginDir(context.nodeModules));
  writeFileSync(path.join(dir, "Pulumi.yaml"), yaml + (options.yamlProgram ?? ""));
  for (const [file, text] of Object.entries(options.files)) writeFileSync(path.join(dir, file), text);
  return PulumiProject.open(dir, options.name, context, { env: options.env?.(dir) });
}
