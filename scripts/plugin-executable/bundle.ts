/**
 * The plugin as one CommonJS script (esbuild), the input of Node's single executable application:
 * everything `provider/plugin/main.ts` runs, and nothing it does not.
 *
 * Two things differ from the compiled package, both so that the bundle needs no `node_modules`:
 * - `provider/plugin/server/rpc.ts` loads the gRPC library and the protocol's stubs through a
 *   `require` made at `@pulumi/pulumi`'s location (so that an installed package uses the copies the
 *   stubs were generated against, however they were hoisted). A bundler cannot follow that call:
 *   here the file is bundled with plain `require`s resolved from that same location, which is
 *   exactly what the call does at run time.
 * - `@pulumi/pulumi` itself stays out. The plugin serves gRPC with the stubs alone; the one place
 *   below the front-ends that uses the SDK (`provider/output/log.ts`'s default sink, for the
 *   dynamic host) loads it at the first message, and the plugin replaces that sink at start.
 *   {@link assertServesOnly} fails the build should anything else pull the SDK in.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { build, type Metafile, type Plugin } from "esbuild";

const repoRoot = path.resolve(__dirname, "../..");
const RPC_MODULE = path.join(repoRoot, "provider", "plugin", "server", "rpc.ts");
const PULUMI_REQUIRE = 'const fromPulumi = createRequire(require.resolve("@pulumi/pulumi"));';

/** `rpc.ts` with its `require`s resolved from `@pulumi/pulumi`'s directory, as at run time. */
const rpcFromPulumi: Plugin = {
  name: "rpc-from-pulumi",
  setup(on) {
    const pulumiDir = path.dirname(require.resolve("@pulumi/pulumi", { paths: [repoRoot] }));
    on.onLoad({ filter: /[\\/]provider[\\/]plugin[\\/]server[\\/]rpc\.ts$/ }, (args) => {
      const source = readFileSync(args.path, "utf8");
      if (args.path !== RPC_MODULE || !source.includes(PULUMI_REQUIRE))
        throw new Error(
          `${args.path} no longer loads its modules through ${PULUMI_REQUIRE}: update bundle.ts`,
        );
      // `fromPulumi("x")` becomes `require("x")`, which the bundler follows from `resolveDir`.
      const contents = source.replace(PULUMI_REQUIRE, "").replace(/\bfromPulumi\(/g, "require(");
      return { contents, loader: "ts", resolveDir: pulumiDir };
    });
  },
};

/** `@pulumi/pulumi` itself (not its `proto/` stubs) is left to a `require` at run time that the plugin never makes. */
const withoutPulumiSdk: Plugin = {
  name: "without-pulumi-sdk",
  setup(on) {
    on.onResolve({ filter: /^@pulumi\/pulumi$/ }, (args) => ({ path: args.path, external: true }));
  },
};

/** Fails when the bundle holds any of `@pulumi/pulumi` beyond its generated protocol stubs. */
export function assertServesOnly(metafile: Metafile): void {
  const sdk = Object.keys(metafile.inputs).filter(
    (input) =>
      input.includes("node_modules/@pulumi/pulumi/") && !input.includes("node_modules/@pulumi/pulumi/proto/"),
  );
  if (sdk.length > 0)
    throw new Error(
      `the plugin's bundle pulls in @pulumi/pulumi beyond its stubs: ${sdk.slice(0, 5).join(", ")}`,
    );
}

/** What went into a bundle: its size and the packages it holds, largest first. */
export interface BundleReport {
  bytes: number;
  packages: { name: string; bytes: number }[];
}

function reportOf(metafile: Metafile, outFile: string): BundleReport {
  const output = Object.entries(metafile.outputs).find(([file]) => path.resolve(file) === outFile)?.[1];
  const byPackage = new Map<string, number>();
  for (const [input, { bytesInOutput }] of Object.entries(output?.inputs ?? {})) {
    const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input);
    const name = match?.[1] ?? "(this project)";
    byPackage.set(name, (byPackage.get(name) ?? 0) + bytesInOutput);
  }
  const packages = [...byPackage].map(([name, bytes]) => ({ name, bytes })).sort((a, b) => b.bytes - a.bytes);
  return { bytes: output?.bytes ?? 0, packages };
}

/** Bundles the plugin into `outFile`, its version fixed in it (the executable has no package.json beside it). */
export async function bundlePlugin(outFile: string, version: string): Promise<BundleReport> {
  const result = await build({
    absWorkingDir: repoRoot,
    entryPoints: [path.join(repoRoot, "provider", "plugin", "main.ts")],
    outfile: outFile,
    bundle: true,
    platform: "node",
    target: "node22",
    format: "cjs",
    // Less to parse at every start; the names in a stack trace matter little in a plugin whose
    // expected failures carry no stack.
    minify: true,
    legalComments: "none",
    metafile: true,
    logLevel: "error",
    define: { DEVPLATFORM_PLUGIN_VERSION: JSON.stringify(version) },
    plugins: [rpcFromPulumi, withoutPulumiSdk],
  });
  assertServesOnly(result.metafile);
  return reportOf(result.metafile, path.resolve(outFile));
}
