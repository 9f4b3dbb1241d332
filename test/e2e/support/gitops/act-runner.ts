/**
 * Runs the example fleet repository's workflows the way GitHub would, with nektos/act
 * (`scripts/provision-act.sh`): `-P ubuntu-latest=-self-hosted` runs each job's steps on this host,
 * offline. Actions of other repositories cannot be fetched here, so two stand-ins (composite actions
 * written by the test, not the real actions) take their place through act's `--local-repository`:
 * - actions/setup-node (v4.4.0, pinned by its commit): Node.js 22 is already on PATH; it puts first on
 *   PATH an `npm` whose `ci` links the node_modules that the README's steps installed with the real
 *   npm from the same package-lock.json (the job's must be that file), and hands every other
 *   command to the real npm;
 * - pulumi/actions (v6.6.1, pinned by its commit; installing the CLI only): puts the suite's Pulumi toolchain on PATH.
 * actions/checkout needs no stand-in: act skips it and copies the repository into the job's
 * workspace itself (its default; `--no-skip-checkout` would fetch the action).
 */
import { execFileSync, spawn } from "node:child_process";
import { chmodSync, cpSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import path from "node:path";
import { killAtPoint, type KillPoint } from "../kill-point";

const repoRoot = path.resolve(__dirname, "../../../..");
const exampleRepo = path.join(repoRoot, "examples", "fleet-repo");

/** The actions the workflows use, as pinned there (by commit), which the stand-ins replace. */
export const PINNED = {
  setupNode: "actions/setup-node@49933ea5288caeca8642d1e84afbd3f7d6820020",
  pulumiActions: "pulumi/actions@8582a9e8cc630786854029b4e09281acd6794b58",
} as const;

export interface ActToolchain {
  actDir: string;
  pulumiDir: string;
}

/** What a run of a workflow gets from the repository's settings, as GitHub would hand them. */
export interface ActSettings {
  vars: Record<string, string>;
  secrets: Record<string, string>;
  /** Environment of every step beyond the runner's (`GITHUB_API_URL`, `GITHUB_RUN_ID`, …). */
  env: Record<string, string>;
}

/** Where a run is killed, and what the test watches of it meanwhile. */
export interface RunKill {
  point: KillPoint;
  /** The kill waits until the run's output also matches this (e.g. another job has ended). */
  afterOutput?: RegExp;
  /** And until this holds (e.g. the test has run another workflow meanwhile). */
  when?: () => boolean;
  /** Called with the whole output so far at every chunk of it. */
  watch?: (output: string) => void;
}

export interface ActResult {
  exitCode: number;
  output: string;
  /** Each job (matrix jobs by their name, e.g. `up-1`) → whether it succeeded. */
  jobs: Record<string, "succeeded" | "failed">;
  /** Whether the run was killed at its kill point. */
  killed: boolean;
}

/** Builds act once per machine (a cached `go install`); the directory holding it. */
export function provisionAct(): string {
  return execFileSync("bash", ["scripts/provision-act.sh"], {
    cwd: repoRoot,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  }).trim();
}

/** The two stand-in actions, in `dir`; act's `--local-repository` arguments for them. */
function writeStandIns(dir: string, repoDir: string, toolchain: ActToolchain): string[] {
  const realNpm = execFileSync("bash", ["-c", "command -v npm"], { encoding: "utf8" }).trim();
  const setupNode = path.join(dir, "setup-node-stand-in");
  mkdirSync(path.join(setupNode, "bin"), { recursive: true });
  writeFileSync(
    path.join(setupNode, "action.yml"),
    [
      "name: actions/setup-node stand-in (the GitOps e2e tests')",
      "inputs: { node-version: { required: false } }",
      "runs:",
      "  using: composite",
      "  steps:",
      '    - run: echo "$GITHUB_ACTION_PATH/bin" >> "$GITHUB_PATH"',
      "      shell: bash",
      "",
    ].join("\n"),
  );
  const npm = path.join(setupNode, "bin", "npm");
  writeFileSync(
    npm,
    [
      "#!/bin/sh",
      "# Stand-in: `npm ci` links the node_modules the README's steps installed in the repository",
      "# from the same package-lock.json (a real `npm ci` takes 30-50 s, once per job).",
      'if [ "$1" = ci ]; then',
      `  src=${JSON.stringify(repoDir)}/"$(basename "$PWD")"`,
      '  if ! cmp -s package-lock.json "$src/package-lock.json"; then',
      '    echo "npm ci stand-in: no package-lock.json, or not the one installed in $src" >&2; exit 1',
      "  fi",
      '  rm -rf node_modules && ln -s "$src/node_modules" node_modules && exit 0',
      "fi",
      `exec ${JSON.stringify(realNpm)} "$@"`,
      "",
    ].join("\n"),
  );
  chmodSync(npm, 0o755);
  const pulumiAction = path.join(dir, "pulumi-actions-stand-in");
  mkdirSync(pulumiAction, { recursive: true });
  writeFileSync(
    path.join(pulumiAction, "action.yml"),
    [
      "name: pulumi/actions stand-in (the GitOps e2e tests')",
      "inputs: { pulumi-version: { required: false } }",
      "runs:",
      "  using: composite",
      "  steps:",
      `    - run: echo ${JSON.stringify(toolchain.pulumiDir)} >> "$GITHUB_PATH"`,
      "      shell: bash",
      "",
    ].join("\n"),
  );
  return [
    "--local-repository",
    `${PINNED.setupNode}=${setupNode}`,
    "--local-repository",
    `${PINNED.pulumiActions}=${pulumiAction}`,
  ];
}

/**
 * A copy of the example fleet repository as a team's clone of it on GitHub (`owner/name`): a git
 * repository whose `origin` is github.com's, so that act reports `GITHUB_REPOSITORY` as on GitHub.
 */
export class FleetRepo {
  private readonly standIns: string[];
  private runs = 0;

  private constructor(
    readonly dir: string,
    private readonly workDir: string,
    private readonly toolchain: ActToolchain,
  ) {
    this.standIns = writeStandIns(path.join(workDir, "stand-ins"), dir, toolchain);
  }

  static create(parent: string, repo: string, toolchain: ActToolchain): FleetRepo {
    const workDir = mkdtempSync(path.join(parent, "gitops-"));
    const dir = path.join(workDir, "repo");
    cpSync(exampleRepo, dir, { recursive: true });
    const git = (...args: string[]) => execFileSync("git", args, { cwd: dir, stdio: "ignore" });
    git("init", "-q", "-b", "main");
    git("remote", "add", "origin", `https://github.com/${repo}.git`);
    const fleetRepo = new FleetRepo(dir, workDir, toolchain);
    fleetRepo.commit("the example fleet repository");
    return fleetRepo;
  }

  /** Switches the working tree (what act copies into a job) to `branch`, created with `create`. */
  checkout(branch: string, create = false): void {
    execFileSync("git", ["checkout", "-q", ...(create ? ["-b"] : []), branch], {
      cwd: this.dir,
      stdio: "ignore",
    });
  }

  /** Commits everything, as a merge to main would leave the tree. */
  commit(message: string): void {
    const git = (...args: string[]) =>
      execFileSync("git", ["-c", "user.name=fleet", "-c", "user.email=fleet@example.com", ...args], {
        cwd: this.dir,
        stdio: "ignore",
      });
    git("add", "-A");
    git("commit", "-q", "--allow-empty", "-m", message);
  }

  /**
   * `act EVENT -W .github/workflows/WORKFLOW -e EVENT.json` with the settings; with a kill point,
   * the whole run (act, its steps, `pulumi` and its plugins) is SIGKILLed there, once its output
   * also matches `kill.afterOutput` (e.g. another job has ended).
   */
  async run(
    event: string,
    workflow: string,
    payload: unknown,
    settings: ActSettings,
    kill?: RunKill,
  ): Promise<ActResult> {
    const run = ++this.runs;
    const eventFile = path.join(this.workDir, `event-${run}.json`);
    writeFileSync(eventFile, JSON.stringify(payload));
    const pairs = (flag: string, values: Record<string, string>) =>
      Object.entries(values).flatMap(([key, value]) => [flag, `${key}=${value}`]);
    const args = [
      event,
      "-W",
      `.github/workflows/${workflow}`,
      "-e",
      eventFile,
      "-P",
      "ubuntu-latest=-self-hosted",
      "--action-offline-mode",
      "--no-cache-server",
      "--action-cache-path",
      path.join(this.workDir, `act-${run}`),
      ...this.standIns,
      ...pairs("--var", settings.vars),
      ...pairs("--secret", settings.secrets),
      ...pairs("--env", settings.env),
    ];
    const child = spawn(path.join(this.toolchain.actDir, "act"), args, {
      cwd: this.dir,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    const take = (chunk: Buffer) => {
      output += chunk.toString();
      kill?.watch?.(output);
    };
    child.stdout.on("data", take);
    child.stderr.on("data", take);
    const afterOutput = kill?.afterOutput;
    const when = kill?.when;
    const point = kill && {
      ...kill.point,
      andWhen: () => (afterOutput?.test(output) ?? true) && (when?.() ?? true),
    };
    const killing = killAtPoint(child.pid, point, "whole-tree");
    const exitCode = await new Promise<number>((resolve, reject) => {
      child.once("error", reject);
      child.once("close", (code, signal) => resolve(code ?? (signal ? 128 : 1)));
    });
    killing.stop();
    const killed = (await killing.done) !== undefined;
    // act's closing line of a matrix job reports the whole matrix; a job's own verdict is its steps'.
    const jobs: Record<string, "succeeded" | "failed"> = {};
    for (const match of output.matchAll(/^\[[^\]/]+\/([^\]]+)\]\s+(🏁\s+Job|❌\s+Failure - Main)/gmu)) {
      // act pads job names to the longest one's width.
      const job = (match[1] ?? "").trim();
      jobs[job] = match[2]?.startsWith("❌") || jobs[job] === "failed" ? "failed" : "succeeded";
    }
    return { exitCode, output, jobs, killed };
  }
}
