/**
 * The index.ts that `export` generates compiles under the generated tsconfig.json, in every style
 * and combination of data files, against this repository's provider/index.ts and the real
 * `pulumi-devplatform/inventory`, resolved through a package `exports` map as a user's
 * node_modules resolves it. (test/e2e/export-round-trip.test.ts runs such projects for real.)
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { projectFiles, type ProjectInput } from "../../../cli/export/project-files";
import { readPackageInfo } from "../../../provider/shared/package-info";

const repoRoot = path.resolve(__dirname, "../../..");
const work = mkdtempSync(path.join(tmpdir(), "devplatform-generated-"));
// One project directory for every case, and each program built on the previous one: the
// declarations of @pulumi/pulumi and Node.js are parsed once instead of once per case.
const project = path.join(work, "project");
let previous: ts.Program | undefined;

/** A node_modules with @pulumi/pulumi and @types from this repository, and a stand-in package. */
function installStandIn(): void {
  const modules = path.join(project, "node_modules");
  const pkg = path.join(modules, "pulumi-devplatform");
  mkdirSync(pkg, { recursive: true });
  symlinkSync(path.join(repoRoot, "node_modules/@pulumi"), path.join(modules, "@pulumi"));
  symlinkSync(path.join(repoRoot, "node_modules/@types"), path.join(modules, "@types"));
  writeFileSync(
    path.join(pkg, "package.json"),
    JSON.stringify({
      name: "pulumi-devplatform",
      exports: { ".": { types: "./index.d.ts" }, "./inventory": { types: "./inventory.d.ts" } },
    }),
  );
  writeFileSync(
    path.join(pkg, "index.d.ts"),
    `export * from ${JSON.stringify(path.join(repoRoot, "provider/index"))};\n`,
  );
  writeFileSync(
    path.join(pkg, "inventory.d.ts"),
    `export * from ${JSON.stringify(path.join(repoRoot, "inventory/index"))};\n`,
  );
}

/** Writes a project's files over the previous case's. */
function writeProject(input: Omit<ProjectInput, "projectName" | "packageInfo">, extra = ""): void {
  const files = projectFiles({ projectName: "fleet", packageInfo: readPackageInfo(), ...input });
  for (const [name, content] of files) writeFileSync(path.join(project, name), content);
  writeFileSync(path.join(project, "index.ts"), `${files.get("index.ts")}${extra}`);
}

function diagnostics(): string[] {
  const { config } = ts.readConfigFile(path.join(project, "tsconfig.json"), ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(config, ts.sys, project);
  expect(parsed.errors).toEqual([]);
  const program = ts.createProgram({
    rootNames: parsed.fileNames,
    options: { ...parsed.options, noEmit: true },
    oldProgram: previous,
  });
  previous = program;
  return ts
    .getPreEmitDiagnostics(program)
    .map(
      (d) => ts.flattenDiagnosticMessageText(d.messageText, "\n") + (d.file ? ` (${d.file.fileName})` : ""),
    );
}

beforeAll(() => installStandIn());
afterAll(() => rmSync(work, { recursive: true, force: true }));

const cases = [
  { style: "fleet", rps: true, config: true },
  { style: "fleet", rps: false, config: false },
  { style: "devices", rps: true, config: true },
  { style: "devices", rps: false, config: true },
] as const;

describe("the generated index.ts against the provider's API", () => {
  it.each(cases)(
    "typechecks: style $style, rps $rps, config $config",
    ({ style, rps, config }) => {
      writeProject({
        style,
        inventory: [{ sn: "240000A10001", name: "lobby", project: "building-a", tags: ["floor-1"] }],
        rps: rps ? [{ sn: "AC0000C30009", profileUrl: "https://rps.example.com/p" }] : undefined,
        configGroups: config
          ? [{ name: "config-1", serials: ["240000A10001"], properties: { reportInterval: 900 } }]
          : undefined,
      });
      expect(diagnostics()).toEqual([]);
    },
    60_000,
  );

  it("fails to typecheck when the program misuses the API (the check is real)", () => {
    writeProject({ style: "devices", inventory: [] }, '\nnew Device("x", { sn: "240000A10001" });\n');
    expect(diagnostics().join("\n")).toMatch(/Property 'name' is missing/);
  }, 60_000);

  it("the README's own program (Using it in your stack) typechecks, readInventory straight into a DeviceFleet", () => {
    writeProject({ style: "fleet", inventory: [] });
    const snippet = readmeSnippet();
    expect(snippet).toContain('devices: readInventory("inventory.csv")');
    writeFileSync(path.join(project, "index.ts"), snippet);
    expect(diagnostics()).toEqual([]);
  }, 60_000);
});

/** The first TypeScript block of the README's "Using it in your stack" section. */
function readmeSnippet(): string {
  const readme = readFileSync(path.join(repoRoot, "README.md"), "utf8");
  const section = readme.slice(readme.indexOf("## Using it in your stack"));
  const match = /```ts\n([\s\S]*?)```/.exec(section);
  if (!match?.[1]) throw new Error("README.md has no ts block under 'Using it in your stack'");
  return match[1];
}
