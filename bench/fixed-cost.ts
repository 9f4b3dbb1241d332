/**
 * The fixed cost of one Pulumi command, per language: a no-change `preview` of a program that
 * declares nothing, and of a program with one Device, best of a few runs, for the TypeScript
 * dynamic resources and for the plugin through the generated TypeScript SDK, Python, Go and YAML.
 * Each project is set up as its e2e file sets it up (test/e2e/plugin-*.test.ts), on a platform of
 * its own so that its Device never shows in the fleets' listings.
 */
import { symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { startEmulator } from "../emulator";
import { goGetSdk, releaseGoSdk } from "../test/e2e/support/go-sdk-module";
import {
  activatedVirtualenv,
  createPluginProject,
  installGeneratedNodeSdk,
  pluginDir,
  pluginProjectYaml,
  provisionPython,
} from "../test/e2e/support/plugin-toolchain";
import {
  assertOk,
  PulumiProject,
  TEST_TSCONFIG,
  type PulumiContext,
} from "../test/e2e/support/pulumi-project";
import { benchSerial } from "./programs";
import { loadNow, type FixedCostFigure, type LoadAverage } from "./results";

/** The context of the fixed-cost projects: the shared one, plus the packed package's tarball. */
export type FixedCostContext = PulumiContext & { tarball: string };

/** One language: how its project is made, and its two programs. */
interface Language {
  label: string;
  /** Makes the project with the one-Device program (serial number `sn`) in place. */
  create(context: FixedCostContext, sn: string): Promise<PulumiProject>;
  /** Writes the program declaring nothing (`sn` undefined) or one Device. */
  write(project: PulumiProject, sn: string | undefined): void;
}

const DEVICE = { name: "fixed-cost-device" };

const file = (project: PulumiProject, name: string, text: string) =>
  writeFileSync(path.join(project.dir, name), text);

const LANGUAGES: Language[] = [
  {
    label: "TypeScript, dynamic resources",
    create: (context, sn) =>
      PulumiProject.create({ name: "fixed-ts-dynamic", program: tsDynamic(sn) }, context),
    write: (project, sn) => project.setProgram(tsDynamic(sn)),
  },
  {
    label: "TypeScript SDK, plugin",
    create(context, sn) {
      const nodeModules = installGeneratedNodeSdk(context.workDir, context.tarball);
      return createPluginProject(
        {
          name: "fixed-ts-sdk",
          runtime: "nodejs",
          files: {
            "index.ts": tsSdk(sn),
            "package.json": JSON.stringify({ name: "fixed-ts-sdk", private: true }),
            "tsconfig.json": TEST_TSCONFIG,
          },
        },
        { ...context, nodeModules },
      );
    },
    write: (project, sn) => file(project, "index.ts", tsSdk(sn)),
  },
  {
    label: "Python, plugin",
    async create(context, sn) {
      const project = await createPluginProject(
        {
          name: "fixed-python",
          runtime: { name: "python", options: { virtualenv: "venv" } },
          files: { "__main__.py": python(sn) },
          env: (dir) => activatedVirtualenv(dir, "venv"),
        },
        context,
      );
      symlinkSync(provisionPython(), path.join(project.dir, "venv"), "dir");
      return project;
    },
    write: (project, sn) => file(project, "__main__.py", python(sn)),
  },
  {
    label: "Go, plugin",
    async create(context, sn) {
      const release = releaseGoSdk(context.workDir);
      const project = await createPluginProject(
        { name: "fixed-go", runtime: "go", files: { "main.go": go(sn) }, env: () => release.env },
        context,
      );
      goGetSdk(project.dir, release);
      return project;
    },
    write: (project, sn) => file(project, "main.go", go(sn)),
  },
  {
    label: "YAML, plugin",
    create: (context, sn) =>
      createPluginProject({ name: "fixed-yaml", runtime: "yaml", files: {}, yamlProgram: yaml(sn) }, context),
    write: (project, sn) =>
      file(
        project,
        "Pulumi.yaml",
        pluginProjectYaml("fixed-yaml", "yaml", pluginDir(yamlModules.get(project) ?? "")) + yaml(sn),
      ),
  },
];

/** The node_modules each YAML project's header names (its Pulumi.yaml is rewritten whole). */
const yamlModules = new Map<PulumiProject, string>();

function tsDynamic(sn: string | undefined): string {
  return sn === undefined
    ? "export {};\n"
    : `import { Device } from "pulumi-devplatform";\nnew Device("one", { sn: "${sn}", name: "${DEVICE.name}" });\n`;
}

function tsSdk(sn: string | undefined): string {
  return sn === undefined
    ? "export {};\n"
    : `import * as devplatform from "@devplatform/pulumi";\nnew devplatform.Device("one", { sn: "${sn}", name: "${DEVICE.name}" });\n`;
}

function python(sn: string | undefined): string {
  return sn === undefined
    ? "import pulumi\n"
    : `import pulumi\nimport pulumi_devplatform as devplatform\n\ndevplatform.Device("one", sn="${sn}", name="${DEVICE.name}")\n`;
}

function go(sn: string | undefined): string {
  const imports =
    sn === undefined
      ? `import "github.com/pulumi/pulumi/sdk/v3/go/pulumi"`
      : `import (\n\t"github.com/devplatform/pulumi-devplatform/plugin-sdks/go/devplatform"\n\t"github.com/pulumi/pulumi/sdk/v3/go/pulumi"\n)`;
  const body =
    sn === undefined
      ? "return nil"
      : `_, err := devplatform.NewDevice(ctx, "one", &devplatform.DeviceArgs{Sn: pulumi.String("${sn}"), Name: pulumi.String("${DEVICE.name}")})\n\t\treturn err`;
  return `package main\n\n${imports}\n\nfunc main() {\n\tpulumi.Run(func(ctx *pulumi.Context) error {\n\t\t${body}\n\t})\n}\n`;
}

function yaml(sn: string | undefined): string {
  return sn === undefined
    ? ""
    : `resources: ${JSON.stringify({ one: { type: "devplatform:Device", properties: { sn, name: DEVICE.name } } })}\n`;
}

async function bestPreview(project: PulumiProject, runs: number): Promise<number> {
  let best = Infinity;
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    assertOk(await project.preview({ expectNoChanges: true }));
    best = Math.min(best, (performance.now() - started) / 1000);
  }
  return Math.round(best * 100) / 100;
}

/** Measures every language; `runs` previews of each program, the best kept. */
export async function measureFixedCost(
  context: FixedCostContext,
  runs = 3,
): Promise<{ load: LoadAverage; languages: FixedCostFigure[] }> {
  const platform = await startEmulator({ control: true });
  const load: LoadAverage = { start: loadNow(), end: 0 };
  const languages: FixedCostFigure[] = [];
  try {
    for (const [index, language] of LANGUAGES.entries()) {
      const sn = benchSerial("24C" + String(index), 1);
      const own = { ...context, emulatorUrl: platform.url };
      const project = await language.create(own, sn);
      yamlModules.set(project, context.nodeModules);
      language.write(project, undefined);
      assertOk(await project.up());
      const emptySeconds = await bestPreview(project, runs);
      language.write(project, sn);
      assertOk(await project.up());
      const oneDeviceSeconds = await bestPreview(project, runs);
      assertOk(await project.destroy());
      languages.push({ label: language.label, runs, emptySeconds, oneDeviceSeconds });
      console.log(`  ${language.label}: empty ${emptySeconds} s, one Device ${oneDeviceSeconds} s`);
    }
  } finally {
    await platform.stop();
  }
  load.end = loadNow();
  return { load, languages };
}
