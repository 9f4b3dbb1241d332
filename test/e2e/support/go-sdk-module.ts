/**
 * The generated Go SDK as users `go get` it: the module whose path is the schema's
 * `language.go.importBasePath` without its package directory, fetched by the go command from a git
 * repository laid out as this one (the module in `plugin-sdks/go`, so its tags are
 * `plugin-sdks/go/<version>`, as Go names a module in a subdirectory). The repository's URL is
 * redirected to a local copy by git's own `url.<base>.insteadOf`, given through the environment so
 * the machine's git configuration is untouched; the go command itself is not told anything else.
 */
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { PULUMI_SDK_VERSION } from "./versions";

const repoRoot = path.resolve(__dirname, "../../..");

/** Where codegen writes the Go SDK in this repository. */
const SDK_DIR = "plugin-sdks/go";

/** The Go SDK, tagged in a repository the go command can fetch. */
export interface GoSdkRelease {
  /** The module path `go get` takes. */
  readonly module: string;
  /** The tagged version: the schema's, with a pre-release naming the SDK's content. */
  readonly version: string;
  /** Environment of every go command (and of the CLI, whose Go host runs `go build`). */
  readonly env: Record<string, string>;
}

function run(command: string, args: string[], cwd: string, env?: Record<string, string>): string {
  return execFileSync(command, args, {
    cwd,
    encoding: "utf8",
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "inherit"],
  });
}

/**
 * Commits the generated SDK into a fresh repository under `workDir` and tags it. The
 * version's pre-release is the SDK tree's git hash: the module cache keeps every version it has
 * fetched, so a regenerated SDK must never reuse a version an earlier run cached.
 */
export function releaseGoSdk(workDir: string): GoSdkRelease {
  const schema = JSON.parse(readFileSync(path.join(repoRoot, "schema.json"), "utf8")) as {
    version: string;
    language: { go: { importBasePath: string } };
  };
  const module = path.posix.dirname(schema.language.go.importBasePath);
  const [host, owner, repo, ...subdirParts] = module.split("/");
  const subdir = subdirParts.join("/");
  if (subdir !== SDK_DIR) {
    throw new Error(
      `the Go module ${module} is not the repository's ${SDK_DIR} (schema language.go.importBasePath)`,
    );
  }
  const origin = mkdtempSync(path.join(workDir, "go-sdk-origin-"));
  mkdirSync(path.join(origin, SDK_DIR), { recursive: true });
  cpSync(path.join(repoRoot, SDK_DIR), path.join(origin, SDK_DIR), { recursive: true });
  const git = (...args: string[]) =>
    run(
      "git",
      ["-c", "user.name=e2e", "-c", "user.email=e2e@localhost", "-c", "commit.gpgsign=false", ...args],
      origin,
    ).trim();
  git("init", "-q");
  git("add", "-A");
  git("commit", "-q", "-m", "the generated Go SDK");
  const tree = git("rev-parse", `HEAD:${SDK_DIR}`);
  const version = `v${schema.version}-e2e-${tree.slice(0, 12)}`;
  git("tag", `${SDK_DIR}/${version}`);
  const repoPath = `${host ?? ""}/${owner ?? ""}/${repo ?? ""}`;
  return {
    module,
    version,
    env: {
      // Not on the module proxy or in the checksum database: fetched directly, with git.
      GOPRIVATE: repoPath,
      GIT_CONFIG_COUNT: "1",
      GIT_CONFIG_KEY_0: `url.${pathToFileURL(origin).href}.insteadOf`,
      GIT_CONFIG_VALUE_0: `https://${repoPath}`,
    },
  };
}

/**
 * Makes `dir` (holding a program's `.go` files) a module as a user does: `go mod init`, `go get` of
 * the SDK and of Pulumi's Go SDK at the CLI's version, `go mod tidy`.
 */
export function goGetSdk(dir: string, release: GoSdkRelease): void {
  run("go", ["mod", "init", `devplatform.e2e/${path.basename(dir)}`], dir, release.env);
  run(
    "go",
    ["get", `${release.module}@${release.version}`, `github.com/pulumi/pulumi/sdk/v3@v${PULUMI_SDK_VERSION}`],
    dir,
    release.env,
  );
  run("go", ["mod", "tidy"], dir, release.env);
}
