/**
 * This package's own `package.json`, read at run time: the generated project depends on the version
 * that wrote it and on the `@pulumi/pulumi` it was built against, and those must not drift from
 * what is installed by being written down twice.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";

const PACKAGE_NAME = "pulumi-devplatform";

const packageJsonSchema = z.object({
  name: z.literal(PACKAGE_NAME),
  version: z.string(),
  devDependencies: z.record(z.string(), z.string()).default({}),
});

/** What the CLI and the plugin need to know about their own package. */
export interface PackageInfo {
  readonly name: string;
  readonly version: string;
  /** Version (or range) of each package this one was built and tested with. */
  readonly devDependencies: Readonly<Record<string, string>>;
}

/**
 * Finds the package's `package.json` above `from` (this file's folder, `provider/shared/` from source or
 * `dist/provider/shared/` installed, by default) and reads it.
 */
export function readPackageInfo(from: string = __dirname): PackageInfo {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const file = path.join(dir, "package.json");
    if (existsSync(file)) {
      const parsed = packageJsonSchema.safeParse(JSON.parse(readFileSync(file, "utf8")));
      if (parsed.success) {
        const { name, version, devDependencies } = parsed.data;
        return { name, version, devDependencies };
      }
    }
    if (path.dirname(dir) === dir)
      throw new Error(`cannot find the package.json of ${PACKAGE_NAME} above ${from}`);
  }
}

/**
 * The range a generated project should ask for of a package this one was built with: `^x.y.z` for
 * an exact `x.y.z` (later compatible releases are fine), the range itself otherwise (`~5.9.3`).
 */
export function builtWith(info: PackageInfo, name: string): string {
  const spec = info.devDependencies[name];
  if (spec === undefined) throw new Error(`${info.name} has no devDependency ${name}`);
  return /^\d+\.\d+\.\d+$/.test(spec) ? `^${spec}` : spec;
}
