/**
 * A Pulumi TypeScript project in a temp directory, driven through the real `pulumi` CLI with a
 * local file backend and a passphrase secrets provider, as a user would run it.
 */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { readEngineEvents, type EngineEvents } from "./engine-events";
import {
  installedPluginDir,
  PLUGIN_MODULE,
  PLUGIN_MODULE_FILE,
  programFor,
  tokenOf,
  type FrontEnd,
  type Kind,
} from "./front-ends";
import { killAtPoint, type KillPoint } from "./kill-point";
import { assertOk, type StackExport } from "./stack-export";

export type { KillPoint } from "./kill-point";
export { assertOk, resourcesOfType, type StackExport, type StackResource } from "./stack-export";

export const PASSPHRASE = "e2e-passphrase";

/** A test project's tsconfig.json, as `pulumi new typescript` writes it (the SDK's runner defaults to nodenext resolution). */
export const TEST_TSCONFIG = JSON.stringify({
  compilerOptions: {
    strict: true,
    target: "es2022",
    module: "commonjs",
    moduleResolution: "node",
    esModuleInterop: true,
  },
});

export interface CommandResult extends EngineEvents {
  exitCode: number;
  stdout: string;
  stderr: string;
  /** stdout and stderr together, for assertions on what a user sees. */
  output: string;
  /** Set when the run was killed at its kill point: how long its plugins took to end after the CLI. */
  killed?: { pluginsEndedAfterMs: number };
}

/** Where projects live and what they run against: the e2e global setup or the benchmark provides it. */
export interface PulumiContext {
  /** Directory holding `pulumi` and its plugins. */
  pulumiDir: string;
  /** A node_modules with pulumi-devplatform (installed from its tarball) and @pulumi/pulumi. */
  nodeModules: string;
  /** Parent directory of the projects. */
  workDir: string;
  /** The platform (emulator) URL set as `devplatform:baseUrl`. */
  emulatorUrl: string;
}

export interface ProjectOptions {
  /** Project name, also the directory's prefix. */
  name: string;
  /** The program's `index.ts`. */
  program: string;
  /** Plain stack configuration (`devplatform:baseUrl` and the client id are set by default). */
  config?: Record<string, string>;
  /** Secret stack configuration (the client secret is set by default). */
  secrets?: Record<string, string>;
  /** Extra files to write next to index.ts. */
  files?: Record<string, string>;
  /** The directory holding `pulumi-resource-devplatform`, named in Pulumi.yaml `plugins.providers`. */
  pluginPath?: string;
  /**
   * The front-end the program's resources go through: its `pulumi-devplatform` imports become
   * the plugin's resources with `plugin` (see front-ends.ts). Default `dynamic`.
   */
  front?: FrontEnd;
  /**
   * Type-check the TypeScript program at every command, as a user's default project does. Off by
   * default (`PULUMI_NODEJS_TRANSPILE_ONLY`): it doubles a command's time, and only the tests
   * whose subject is the program's types (the README's program) need it.
   */
  typeCheck?: boolean;
  /**
   * Environment of every command, as the user's shell would have it (e.g. an activated Python
   * virtual environment first on `PATH`). `PATH` here goes before the toolchain's and the machine's.
   */
  env?: Record<string, string>;
}

/** Pulumi.yaml of a TypeScript project, naming the provider plugin's directory when given. */
function pulumiYaml(name: string, pluginPath: string | undefined): string {
  const plugins =
    pluginPath === undefined
      ? ""
      : `plugins:\n  providers:\n    - name: devplatform\n      path: ${JSON.stringify(pluginPath)}\n`;
  return `name: ${name}\nruntime: nodejs\n${plugins}`;
}

export interface RunOptions {
  /** Extra environment, e.g. DEVPLATFORM_* fallbacks. */
  env?: Record<string, string>;
  /**
   * Once `held` requests wait at the hold, SIGKILL the CLI, and resolve only when every process it
   * had started has ended on its own: after that, no request of this run reaches the platform except
   * the held ones, which the test then releases (`perform` or `fail`). The kill point is a request
   * count, never a moment.
   */
  killWhenHeld?: KillPoint;
  /** `--parallel` of an engine command: pinned where a kill point's figures depend on it. */
  parallel?: number;
}

/** The credentials the e2e emulator accepts. */
export const E2E_CREDENTIALS = { clientId: "demo-client", clientSecret: "demo-secret" };

export class PulumiProject {
  readonly dir: string;
  readonly stateDir: string;
  private readonly homeDir: string;
  private runs = 0;
  /** Process id of the most recent CLI run (the benchmark samples its process tree). */
  lastPid: number | undefined;

  private constructor(
    dir: string,
    private readonly name: string,
    private readonly context: PulumiContext,
    private readonly typeCheck = false,
    /** The front-end this project's programs go through. */
    readonly front: FrontEnd = "dynamic",
    private readonly env: Record<string, string> = {},
  ) {
    this.dir = dir;
    this.stateDir = path.join(dir, ".state");
    this.homeDir = path.join(dir, ".pulumi-home");
  }

  /** Writes the project, links the shared node_modules, and creates the `dev` stack with its config. */
  static async create(options: ProjectOptions, context: PulumiContext): Promise<PulumiProject> {
    const dir = mkdtempSync(path.join(context.workDir, `${options.name}-`));
    const front = options.front ?? "dynamic";
    const pluginPath =
      options.pluginPath ?? (front === "plugin" ? installedPluginDir(context.nodeModules) : undefined);
    writeFileSync(path.join(dir, "Pulumi.yaml"), pulumiYaml(options.name, pluginPath));
    if (front === "plugin") writeFileSync(path.join(dir, PLUGIN_MODULE_FILE), PLUGIN_MODULE);
    writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: options.name, private: true }));
    writeFileSync(path.join(dir, "tsconfig.json"), TEST_TSCONFIG);
    writeFileSync(path.join(dir, "index.ts"), programFor(front, options.program));
    for (const [file, text] of Object.entries(options.files ?? {}))
      writeFileSync(path.join(dir, file), file.endsWith(".ts") ? programFor(front, text) : text);
    return PulumiProject.open(dir, options.name, context, options);
  }

  /**
   * Takes a project that is already written (e.g. by `devplatform export`): links the shared
   * node_modules (the package installed from its tarball, as `npm install` would) and creates the
   * `dev` stack with its config.
   */
  static async open(
    dir: string,
    name: string,
    context: PulumiContext,
    options: Pick<ProjectOptions, "config" | "secrets" | "typeCheck" | "front" | "env"> = {},
  ): Promise<PulumiProject> {
    const project = new PulumiProject(dir, name, context, options.typeCheck, options.front, options.env);
    mkdirSync(project.stateDir);
    mkdirSync(project.homeDir);
    symlinkSync(context.nodeModules, path.join(dir, "node_modules"), "dir");
    await project.cli(["stack", "init", "dev"]).then(assertOk);
    const config = {
      "devplatform:baseUrl": context.emulatorUrl,
      "devplatform:clientId": E2E_CREDENTIALS.clientId,
      ...options.config,
    };
    const secrets = { "devplatform:clientSecret": E2E_CREDENTIALS.clientSecret, ...options.secrets };
    // One command for the whole configuration: each CLI start costs about half a second.
    const pairs = [
      ...Object.entries(config).flatMap(([key, value]) => ["--plaintext", `${key}=${value}`]),
      ...Object.entries(secrets).flatMap(([key, value]) => ["--secret", `${key}=${value}`]),
    ];
    await project.cli(["config", "set-all", ...pairs]).then(assertOk);
    return project;
  }

  /** Replaces the program's index.ts. */
  setProgram(program: string): void {
    writeFileSync(path.join(this.dir, "index.ts"), programFor(this.front, program));
  }

  /** A kind's type token in this project's front-end. */
  token(kind: Kind): string {
    return tokenOf(this.front, kind);
  }

  /** `pulumi up --skip-preview`, with a policy pack where given (as a deploy job runs it). */
  up(options: RunOptions & { policyPack?: string; policyPackConfig?: string } = {}): Promise<CommandResult> {
    const args = ["up", "--yes", "--skip-preview"];
    if (options.policyPack !== undefined) args.push("--policy-pack", options.policyPack);
    if (options.policyPackConfig !== undefined) args.push("--policy-pack-config", options.policyPackConfig);
    return this.engine(args, options);
  }

  preview(
    flags: { expectNoChanges?: boolean; diff?: boolean; policyPack?: string; policyPackConfig?: string } = {},
    options: RunOptions = {},
  ): Promise<CommandResult> {
    const args = ["preview"];
    if (flags.expectNoChanges) args.push("--expect-no-changes");
    if (flags.diff) args.push("--diff");
    if (flags.policyPack !== undefined) args.push("--policy-pack", flags.policyPack);
    if (flags.policyPackConfig !== undefined) args.push("--policy-pack-config", flags.policyPackConfig);
    return this.engine(args, options);
  }

  refresh(options: RunOptions = {}): Promise<CommandResult> {
    return this.engine(["refresh", "--yes", "--skip-preview"], options);
  }

  /** `pulumi refresh --expect-no-changes`: fails when the platform differs from state. */
  refreshExpectingNoChanges(options: RunOptions = {}): Promise<CommandResult> {
    return this.engine(["refresh", "--yes", "--skip-preview", "--expect-no-changes"], options);
  }

  /** `pulumi up --refresh`: refreshes first, then updates. */
  upWithRefresh(options: RunOptions = {}): Promise<CommandResult> {
    return this.engine(["up", "--yes", "--skip-preview", "--refresh"], options);
  }

  destroy(options: RunOptions = {}): Promise<CommandResult> {
    return this.engine(["destroy", "--yes", "--skip-preview"], options);
  }

  /** `pulumi import` of one resource into the stack, by type token, name and id. */
  import(type: string, name: string, id: string): Promise<CommandResult> {
    return this.engine(["import", type, name, id, "--yes", "--skip-preview", "--generate-code=false"], {});
  }

  /** `pulumi import --file` of several resources in one command (one CLI start, one plugin process). */
  importAll(resources: readonly { type: string; name: string; id: string }[]): Promise<CommandResult> {
    const file = path.join(this.dir, `.import-${++this.runs}.json`);
    writeFileSync(file, JSON.stringify({ resources }));
    return this.engine(["import", "--file", file, "--yes", "--skip-preview", "--generate-code=false"], {});
  }

  /** `pulumi stack export` as parsed JSON. */
  async exportStack(): Promise<StackExport> {
    const result = await this.cli(["stack", "export"]);
    assertOk(result);
    return JSON.parse(result.stdout) as StackExport;
  }

  /**
   * Resources of a type in the `dev` stack's state file as the file backend last wrote it (readable
   * while a run holds the lock; the backend replaces the file whole), 0 before the first write.
   */
  checkpointCount(type: string): number {
    let text: string;
    try {
      text = this.stateFileText();
    } catch {
      return 0;
    }
    let file: { checkpoint?: { latest?: { resources?: { type: string }[] } } };
    try {
      file = JSON.parse(text) as typeof file;
    } catch {
      return 0; // caught mid-write
    }
    return (file.checkpoint?.latest?.resources ?? []).filter((r) => r.type === type).length;
  }

  /** The raw state file of the `dev` stack, as the file backend wrote it. */
  stateFileText(): string {
    const file = path.join(
      this.stateDir,
      ".pulumi",
      "stacks",
      path.basename(this.dir).replace(/-[^-]+$/, ""),
      "dev.json",
    );
    return readFileSync(file, "utf8");
  }

  /** Runs an engine command with an event log and returns its structured result. */
  private async engine(args: string[], options: RunOptions): Promise<CommandResult> {
    const eventLog = path.join(this.dir, `.events-${++this.runs}.jsonl`);
    const parallel = options.parallel === undefined ? [] : ["--parallel", String(options.parallel)];
    const result = await this.cli(
      [...args, ...parallel, "--event-log", eventLog, "--color", "never"],
      options,
    );
    return { ...result, ...readEngineEvents(eventLog) };
  }

  /** Runs `pulumi` with this project's home, backend and passphrase. */
  cli(args: string[], options: RunOptions = {}): Promise<Omit<CommandResult, keyof EngineEvents>> {
    const { pulumiDir } = this.context;
    const { PATH: projectPath, ...projectEnv } = this.env;
    const env = {
      ...process.env,
      ...projectEnv,
      PATH: [projectPath, pulumiDir, process.env.PATH ?? ""]
        .filter((p) => p !== undefined)
        .join(path.delimiter),
      PULUMI_HOME: this.homeDir,
      PULUMI_BACKEND_URL: `file://${this.stateDir}`,
      PULUMI_CONFIG_PASSPHRASE: PASSPHRASE,
      PULUMI_SKIP_UPDATE_CHECK: "true",
      PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
      PULUMI_SKIP_CONFIRMATIONS: "true",
      // Enables --event-log, the engine event stream the results are read from (as the Automation API does).
      PULUMI_DEBUG_COMMANDS: "true",
      NO_COLOR: "1",
      ...(this.typeCheck ? {} : { PULUMI_NODEJS_TRANSPILE_ONLY: "true" }),
      ...options.env,
    };
    return new Promise((resolve, reject) => {
      const child = spawn(path.join(pulumiDir, "pulumi"), ["--non-interactive", ...args], {
        cwd: this.dir,
        env,
        stdio: ["ignore", "pipe", "pipe"],
      });
      this.lastPid = child.pid;
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
      const killed = killAtPoint(child.pid, options.killWhenHeld);
      child.on("error", reject);
      child.on("close", (code, signal) => {
        killed.stop();
        const exitCode = code ?? (signal ? 128 : 1);
        killed.done.then(
          (pluginsEndedAfterMs) =>
            resolve({
              exitCode,
              stdout,
              stderr,
              output: stdout + stderr,
              ...(pluginsEndedAfterMs === undefined ? {} : { killed: { pluginsEndedAfterMs } }),
            }),
          (error: unknown) => reject(error instanceof Error ? error : new Error(String(error))),
        );
      });
    });
  }
}
