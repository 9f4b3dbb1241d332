/**
 * Every `DEVPLATFORM_*` environment variable the repository's code reads is in the configuration
 * reference, and every one the reference names is read somewhere: a variable added to a script or
 * the provider without a line in docs/installation-configuration.md fails here, and so does a line
 * left behind after its variable is gone.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const repoRoot = path.resolve(__dirname, "../..");
const REFERENCE = "docs/installation-configuration.md";

/** Directories that hold no hand-written reads: dependencies, builds, version control. */
const SKIPPED_DIRECTORIES = new Set(["node_modules", "dist", ".git", ".demo"]);

/** Files whose text is code or configuration a program reads (prose is not a read). */
const CODE_FILE = /\.(ts|mts|cts|js|mjs|cjs|sh|py|go|ya?ml|json)$|^pulumi-resource-devplatform$|^run$/;

/**
 * Names that look like variables and are not read from the environment: the plugin executable's
 * bundler replaces this constant with the package's version at build time.
 */
const NOT_ENVIRONMENT = new Set(["DEVPLATFORM_PLUGIN_VERSION"]);

function codeFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) return SKIPPED_DIRECTORIES.has(entry.name) ? [] : codeFiles(full);
    return entry.isFile() && CODE_FILE.test(entry.name) ? [full] : [];
  });
}

function variablesIn(text: string): Set<string> {
  return new Set([...text.matchAll(/\bDEVPLATFORM_[A-Z0-9_]*[A-Z0-9]\b/g)].map((m) => m[0]));
}

/** Each variable the code names, with the first few files that name it (for the failure message). */
function variablesOfTheCode(): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const file of codeFiles(repoRoot)) {
    if (file === __filename) continue; // its own examples are no reads
    for (const name of variablesIn(readFileSync(file, "utf8"))) {
      if (NOT_ENVIRONMENT.has(name)) continue;
      found.set(name, [...(found.get(name) ?? []), path.relative(repoRoot, file)]);
    }
  }
  return found;
}

describe("the configuration reference lists every DEVPLATFORM_* variable", () => {
  const inCode = variablesOfTheCode();
  const inReference = variablesIn(readFileSync(path.join(repoRoot, REFERENCE), "utf8"));

  it("finds the variables it looks for (the scan itself works)", () => {
    // The provider's settings, a launcher's and a provisioning script's: one from each reader.
    for (const name of ["DEVPLATFORM_BASE_URL", "DEVPLATFORM_NODE", "DEVPLATFORM_ACT_VERSION"]) {
      expect(inCode.has(name), name).toBe(true);
    }
  });

  it("names every variable the code reads", () => {
    const missing = [...inCode].filter(([name]) => !inReference.has(name));
    expect(
      missing.map(([name, files]) => `${name} (read in ${files.slice(0, 3).join(", ")})`),
      `not in ${REFERENCE}`,
    ).toEqual([]);
  });

  it("names no variable that nothing reads", () => {
    expect(
      [...inReference].filter((name) => !inCode.has(name)),
      `in ${REFERENCE} but read nowhere`,
    ).toEqual([]);
  });
});
