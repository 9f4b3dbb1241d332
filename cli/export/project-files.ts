/**
 * The files of a generated Pulumi project: the program, its package and compiler settings, and the
 * data files it reads. Pure: the same input always gives the same bytes, so that exporting an
 * unchanged fleet again changes nothing in a repository.
 */
import {
  formatConfigGroups,
  formatInventory,
  formatRps,
  type ConfigGroup,
  type InventoryEntry,
  type RpsEntry,
} from "../../inventory";
import { builtWith, type PackageInfo } from "../../provider/shared/package-info";
import { indexTs, type ExportStyle, type IndexOptions } from "./index-template";

/** What a project is generated from. */
export interface ProjectInput {
  /** The Pulumi project name (letters, digits, `-`, `_`, `.`). */
  readonly projectName: string;
  readonly style: ExportStyle;
  readonly inventory: readonly InventoryEntry[];
  /** RPS records; absent when they were not exported (then there is no `rps.csv`). */
  readonly rps?: readonly RpsEntry[];
  /** Configuration groups; absent when not exported (then there is no `config.json`). */
  readonly configGroups?: readonly ConfigGroup[];
  /** This package, whose version and toolchain the project depends on. */
  readonly packageInfo: PackageInfo;
  /** What `--take-over` takes over (see index-template.ts). */
  readonly takeOver?: IndexOptions["takeOver"];
}

function pulumiYaml(projectName: string): string {
  // JSON strings are YAML strings: a name such as `1.0` stays a string.
  return `name: ${JSON.stringify(projectName)}
description: A device platform fleet declared from inventory.csv (written by devplatform export)
runtime:
  name: nodejs
  options:
    typescript: true
`;
}

/** npm package names are lowercase and do not start with `.` or `_`. */
function npmName(projectName: string): string {
  return projectName.toLowerCase().replace(/^[._]+/, "") || "devplatform-fleet";
}

function packageJson(projectName: string, info: PackageInfo): string {
  const manifest = {
    name: npmName(projectName),
    private: true,
    main: "index.ts",
    dependencies: {
      "@pulumi/pulumi": builtWith(info, "@pulumi/pulumi"),
      [info.name]: `^${info.version}`,
    },
    devDependencies: {
      "@types/node": builtWith(info, "@types/node"),
      "ts-node": builtWith(info, "ts-node"),
      typescript: builtWith(info, "typescript"),
    },
  };
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

/**
 * Node16/nodenext resolution, because the program imports `pulumi-devplatform/inventory`, a
 * subpath that only the package's `exports` map describes; it is also what Pulumi's TypeScript
 * support uses when a project does not say.
 */
const TSCONFIG = `${JSON.stringify(
  {
    compilerOptions: {
      strict: true,
      target: "es2022",
      module: "nodenext",
      moduleResolution: "nodenext",
      types: ["node"],
      outDir: "bin",
      sourceMap: true,
      skipLibCheck: true,
      forceConsistentCasingInFileNames: true,
    },
    files: ["index.ts"],
  },
  null,
  2,
)}\n`;

const GITIGNORE = "node_modules/\nbin/\n";

/** Every file of the project by name, in the order they are listed to the user. */
export function projectFiles(input: ProjectInput): Map<string, string> {
  const files = new Map<string, string>([
    ["Pulumi.yaml", pulumiYaml(input.projectName)],
    ["package.json", packageJson(input.projectName, input.packageInfo)],
    ["tsconfig.json", TSCONFIG],
    [".gitignore", GITIGNORE],
    [
      "index.ts",
      indexTs({
        style: input.style,
        rps: input.rps !== undefined,
        rpsEmpty: input.rps?.length === 0,
        config: input.configGroups !== undefined,
        ...(input.takeOver === undefined ? {} : { takeOver: input.takeOver }),
      }),
    ],
    ["inventory.csv", formatInventory(input.inventory)],
  ]);
  if (input.rps) files.set("rps.csv", formatRps(input.rps));
  if (input.configGroups) files.set("config.json", formatConfigGroups(input.configGroups));
  return files;
}
