/**
 * `npm run plugin:archive -- OUT_DIR [--targets linux-amd64,darwin-arm64,…|all] [--fresh]`: the
 * plugin's release archives and their checksums file (build.ts). Prints each archive's path.
 */
import path from "node:path";
import { buildArchives } from "./build";
import { targetsNamed, type Target } from "./targets";

const repoRoot = path.resolve(__dirname, "../..");

function parseArgs(args: string[]): { outDir: string; targets: Target[]; fresh: boolean } {
  let outDir = repoRoot;
  let spec = "all";
  let fresh = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === "--targets") spec = args[++i] ?? "";
    else if (arg.startsWith("--targets=")) spec = arg.slice("--targets=".length);
    else if (arg === "--fresh") fresh = true;
    else if (arg.startsWith("-")) throw new Error(`unknown option ${arg} (--targets LIST, --fresh)`);
    else outDir = path.resolve(arg);
  }
  return { outDir, targets: targetsNamed(spec), fresh };
}

async function main(): Promise<void> {
  for (const archive of await buildArchives(parseArgs(process.argv.slice(2))))
    process.stdout.write(`${archive}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`[plugin-archive] ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
