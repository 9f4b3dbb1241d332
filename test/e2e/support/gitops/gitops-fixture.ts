/**
 * What a GitOps test runs the example fleet repository's workflows against: a copy of the repository
 * (its stacks created first, as its README says), act, the GitHub stand-in, the shared S3 backend
 * and the file's emulator; and the repository settings (variables, secrets) a team would set.
 */
import { execFile, execFileSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { E2E_CREDENTIALS, PASSPHRASE } from "../pulumi-project";
import { e2e } from "../e2e-context";
import { FleetRepo, provisionAct, type ActResult, type ActSettings, type RunKill } from "./act-runner";
import { GitHubStandIn } from "../../../support/github-stand-in";
import { startS3Backend, type S3Backend } from "./s3-backend";
import { followReadme } from "./readme-steps";

/** A workflow run's attempt: GitHub's re-run of a run is its next attempt, under the same id. */
export interface RunRef {
  id: number;
  attempt: number;
}

/** The repository on "GitHub" (the stand-in). */
export const REPO = "acme/fleet-repo";
/** The repository's `GITHUB_TOKEN`, which the stand-in checks on every request. */
const GITHUB_TOKEN = "stand-in-token";

export class GitOpsFixture {
  private constructor(
    readonly repo: FleetRepo,
    readonly github: GitHubStandIn,
    readonly backend: S3Backend,
    /** `fleet` (TypeScript, dynamic resources) or `fleet-yaml` (the plugin). */
    readonly fleetDir: string,
    private readonly pulumiHome: string,
    private readonly pulumiDir: string,
  ) {}

  /**
   * Copies the example repository to a fresh git repository and follows its README's setup as
   * written (the package from this checkout's tarball, a real `npm install` of each program on its
   * shipped lock file, both programs' stacks created in the shared backend, committed); the
   * workflows then run on `fleetDir`.
   */
  static async start(fleetDir: string): Promise<GitOpsFixture> {
    const context = e2e();
    const toolchain = { actDir: provisionAct(), pulumiDir: context.pulumiDir };
    const repo = FleetRepo.create(context.workDir, REPO, toolchain);
    const github = await GitHubStandIn.start({ token: GITHUB_TOKEN, repo: REPO });
    const backend = await startS3Backend("fleet-state");
    const pulumiHome = path.join(repo.dir, "..", "pulumi-home");
    mkdirSync(pulumiHome);
    const fixture = new GitOpsFixture(repo, github, backend, fleetDir, pulumiHome, context.pulumiDir);
    followReadme(repo.dir, {
      tarball: context.tarball,
      exports: fixture.backendEnv(),
      env: {
        PATH: `${context.pulumiDir}${path.delimiter}${process.env.PATH ?? ""}`,
        PULUMI_HOME: pulumiHome,
        PULUMI_SKIP_UPDATE_CHECK: "true",
        // The machine's npm cache holds every package of the lock files (the suite's setup
        // installed them): no need to ask the registry again about each.
        npm_config_prefer_offline: "true",
        GIT_AUTHOR_NAME: "fleet",
        GIT_AUTHOR_EMAIL: "fleet@example.com",
        GIT_COMMITTER_NAME: "fleet",
        GIT_COMMITTER_EMAIL: "fleet@example.com",
      },
    });
    return fixture;
  }

  /** `pulumi` in the project, on the shared backend, as a team member runs it from a clone. */
  pulumi(args: string[]): string {
    return execFileSync(path.join(this.pulumiDir, "pulumi"), ["--non-interactive", ...args], {
      cwd: path.join(this.repo.dir, this.fleetDir),
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
      env: this.cliEnv(),
    });
  }

  /** {@link pulumi} without blocking, so that commands on several stacks run at once. */
  async pulumiAsync(args: string[], env = this.cliEnv()): Promise<string> {
    const run = promisify(execFile);
    const { stdout } = await run(path.join(this.pulumiDir, "pulumi"), ["--non-interactive", ...args], {
      cwd: path.join(this.repo.dir, this.fleetDir),
      encoding: "utf8",
      env,
    });
    return stdout;
  }

  /** Secrets a test changes (e.g. a wrong client secret), over the ones the README lists. */
  readonly secretOverrides: Record<string, string> = {};

  /** The repository's variables and secrets (README), and the runner's environment for a run. */
  settings(run: RunRef): ActSettings {
    const context = e2e();
    return {
      vars: {
        // `fleet` is the workflows' default: not set for it, as a team keeping `fleet/` would.
        ...(this.fleetDir === "fleet" ? {} : { FLEET_DIR: this.fleetDir }),
        DEVPLATFORM_BASE_URL: context.emulatorUrl,
        // The shortest lease deploy-stack.sh accepts that a loaded CI machine renews in time.
        DEPLOY_LEASE_SECONDS: "30",
      },
      secrets: {
        PULUMI_BACKEND_URL: this.backend.url,
        PULUMI_CONFIG_PASSPHRASE: PASSPHRASE,
        ...this.backend.credentials,
        DEVPLATFORM_CLIENT_ID: E2E_CREDENTIALS.clientId,
        DEVPLATFORM_CLIENT_SECRET: E2E_CREDENTIALS.clientSecret,
        GITHUB_TOKEN,
        ...this.secretOverrides,
      },
      env: {
        GITHUB_API_URL: this.github.url,
        GITHUB_RUN_ID: String(run.id),
        GITHUB_RUN_ATTEMPT: String(run.attempt),
        // A runner's own home, and no update check (offline).
        PULUMI_HOME: this.pulumiHome,
        // No PULUMI_NODEJS_TRANSPILE_ONLY: the TypeScript program is type-checked at every run, as
        // in a user's CI (and by preview.yml's `tsc --noEmit`).
        PULUMI_SKIP_UPDATE_CHECK: "true",
      },
    };
  }

  /**
   * Runs `workflow` for `event` as run `run` (its first attempt, or the attempt a re-run of it
   * is), optionally killed at a point.
   */
  run(
    event: string,
    workflow: string,
    payload: unknown,
    run: number | RunRef,
    kill?: RunKill,
  ): Promise<ActResult> {
    const ref = typeof run === "number" ? { id: run, attempt: 1 } : run;
    return this.repo.run(event, workflow, payload, this.settings(ref), kill);
  }

  async stop(): Promise<void> {
    await Promise.all([this.github.stop(), this.backend.stop()]);
  }

  private cliEnv(): NodeJS.ProcessEnv {
    return {
      ...process.env,
      ...this.backendEnv(),
      PULUMI_HOME: this.pulumiHome,
      PULUMI_SKIP_UPDATE_CHECK: "true",
    };
  }

  private backendEnv(): Record<string, string> {
    return {
      PULUMI_BACKEND_URL: this.backend.url,
      PULUMI_CONFIG_PASSPHRASE: PASSPHRASE,
      ...this.backend.credentials,
    };
  }
}

/** A push to main, as GitHub's `push` event carries it. */
export function pushEvent(): unknown {
  return {
    ref: "refs/heads/main",
    repository: { full_name: REPO, name: "fleet-repo", owner: { login: "acme" } },
  };
}

/** A pull request's event (`pull_request`, action `synchronize`). */
export function pullRequestEvent(number: number, headRepo = REPO): unknown {
  return {
    action: "synchronize",
    number,
    pull_request: {
      number,
      head: { ref: "fleet-change", sha: "0".repeat(40), repo: { full_name: headRepo } },
      base: { ref: "main", repo: { full_name: REPO } },
    },
    repository: { full_name: REPO, name: "fleet-repo", owner: { login: "acme" } },
  };
}

/** A run dispatched by hand (`workflow_dispatch`) from `branch`. */
export function dispatchEvent(branch: string): unknown {
  return {
    ref: `refs/heads/${branch}`,
    inputs: {},
    repository: { full_name: REPO, name: "fleet-repo", owner: { login: "acme" } },
  };
}
