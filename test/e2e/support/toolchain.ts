/**
 * Prepares what the real-CLI tests and the benchmark run on: the Pulumi CLI (built from Go modules
 * when missing), this package built and `npm pack`ed, and a node_modules that installs the tarball
 * the way users install the package. Nothing here is optional: a missing toolchain is an error.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { PULUMI_SDK_VERSION } from "./versions";

const repoRoot = path.resolve(__dirname, "../../..");

export interface Toolchain {
  pulumiDir: string;
  nodeModules: string;
  tarball: string;
}

function run(command: string, args: string[], cwd = repoRoot): string {
  return execFileSync(command, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
}

function provisionPulumi(): string {
  const dir = run("bash", ["scripts/provision-pulumi.sh"]).trim();
  const version = run(path.join(dir, "pulumi"), ["version"]).trim();
  if (version !== `v${PULUMI_SDK_VERSION}`)
    throw new Error(`expected pulumi v${PULUMI_SDK_VERSION}, got ${version}`);
  return dir;
}

function packPackage(workDir: string): string {
  run("npm", ["run", "--silent", "build"]);
  const packDir = path.join(workDir, "pack");
  mkdirSync(packDir, { recursive: true });
  run("npm", ["pack", "--silent", "--ignore-scripts", "--pack-destination", packDir]);
  const tarball = readdirSync(packDir).find((f) => f.endsWith(".tgz"));
  if (!tarball) throw new Error("npm pack produced no tarball");
  return path.join(packDir, tarball);
}

/** One `npm install` per run; each project links this node_modules. */
function installTemplate(workDir: string, tarball: string): string {
  const templateDir = path.join(workDir, "template");
  mkdirSync(templateDir, { recursive: true });
  writeFileSync(
    path.join(templateDir, "package.json"),
    JSON.stringify({
      name: "devplatform-template",
      private: true,
      dependencies: {
        "pulumi-devplatform": `file:${tarball}`,
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

/** Provisions the CLI, packs this package and installs it into `workDir/template`. */
export function prepareToolchain(workDir: string): Toolchain {
  const pulumiDir = provisionPulumi();
  const tarball = packPackage(workDir);
  const nodeModules = installTemplate(workDir, tarball);
  return { pulumiDir, nodeModules, tarball };
}

/**
 * Removes a run's work directory, unless `DEVPLATFORM_KEEP_WORK_DIR=1` asks to keep it (to look
 * into a failure; its path is printed then).
 */
export function removeWorkDir(workDir: string): void {
  if (process.env.DEVPLATFORM_KEEP_WORK_DIR === "1") {
    console.log(`kept the work directory ${workDir} (DEVPLATFORM_KEEP_WORK_DIR=1)`);
    return;
  }
  rmSync(workDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
}
