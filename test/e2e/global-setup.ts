/**
 * e2e global setup: provisions the Pulumi CLI (built from Go modules when missing), builds and
 * `npm pack`s this package, installs it once into a project template the way users install it, and
 * starts an emulator on loopback. Nothing here is optional: a missing toolchain fails the run.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node" with { "resolution-mode": "import" };
import { startEmulator } from "../../emulator";
import { PULUMI_SDK_VERSION } from "./support/versions";

const repoRoot = path.resolve(__dirname, "../..");

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
  mkdirSync(packDir);
  run("npm", ["pack", "--silent", "--ignore-scripts", "--pack-destination", packDir]);
  const tarball = readdirSync(packDir).find((f) => f.endsWith(".tgz"));
  if (!tarball) throw new Error("npm pack produced no tarball");
  return path.join(packDir, tarball);
}

/** One `npm install` per run; each test project links this node_modules. */
function installTemplate(workDir: string, tarball: string): string {
  const templateDir = path.join(workDir, "template");
  mkdirSync(templateDir);
  writeFileSync(
    path.join(templateDir, "package.json"),
    JSON.stringify({
      name: "e2e-template",
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

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const workDir = mkdtempSync(path.join(tmpdir(), "devplatform-e2e-"));
  const pulumiDir = provisionPulumi();
  const tarball = packPackage(workDir);
  const nodeModules = installTemplate(workDir, tarball);
  const emulator = await startEmulator({ control: true });
  project.provide("e2e", { pulumiDir, nodeModules, workDir, emulatorUrl: emulator.url, tarball });
  return async () => {
    await emulator.stop();
  };
}

declare module "vitest" {
  export interface ProvidedContext {
    e2e: { pulumiDir: string; nodeModules: string; workDir: string; emulatorUrl: string; tarball: string };
  }
}
