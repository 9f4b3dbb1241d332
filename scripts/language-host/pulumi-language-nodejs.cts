/**
 * A Node.js language host for the Pulumi CLI: the `pulumi-language-nodejs` plugin.
 *
 * Why it exists: this project's toolchain builds the Pulumi CLI from its Go modules, but the Go
 * module proxy reachable here refuses the language host's own module
 * (`github.com/pulumi/pulumi/sdk/nodejs/cmd/pulumi-language-nodejs/v3`: "403 This module version is
 * not available"). This is a small implementation of the documented `pulumirpc.LanguageRuntime`
 * gRPC service, built on the generated stubs that `@pulumi/pulumi` publishes on npm. It runs a
 * program exactly as Pulumi's own host does: `node <@pulumi/pulumi/cmd/run> --monitor … <entry>`
 * with the stack configuration in `PULUMI_CONFIG`.
 *
 * Plugin protocol: started by the engine with the engine's address as the last argument; prints the
 * port it serves on as the first line of stdout; exits when the engine (its parent) goes away.
 *
 * Runs with Node 22's type stripping (only erasable TypeScript syntax here).
 */
import type * as GrpcJs from "@grpc/grpc-js";
import type * as LanguagePb from "@pulumi/pulumi/proto/language_pb";
import type * as LanguageGrpcPb from "@pulumi/pulumi/proto/language_grpc_pb";
import type * as PluginPb from "@pulumi/pulumi/proto/plugin_pb";

const childProcess = require("node:child_process") as typeof import("node:child_process");
const path = require("node:path") as typeof import("node:path");
const fs = require("node:fs") as typeof import("node:fs");
const grpc = require("@grpc/grpc-js") as typeof GrpcJs;
const languagePb = require("@pulumi/pulumi/proto/language_pb") as typeof LanguagePb;
const languageGrpc = require("@pulumi/pulumi/proto/language_grpc_pb") as typeof LanguageGrpcPb;
const pluginPb = require("@pulumi/pulumi/proto/plugin_pb") as typeof PluginPb;

/** Exit code by which `@pulumi/pulumi/cmd/run` says it already showed the user an actionable error. */
const EXIT_AFTER_USER_MESSAGE = 32;
const HOST_VERSION = process.env.PULUMI_LANGUAGE_HOST_VERSION ?? "3.259.0";

type Callback<T> = (error: GrpcJs.ServiceError | null, value?: T) => void;
type Unary<Req, Res> = (call: GrpcJs.ServerUnaryCall<Req, Res>, callback: Callback<Res>) => void;

let engineAddress =
  process.argv
    .filter((a) => !a.startsWith("-"))
    .slice(2)
    .at(-1) ?? "";
const running = new Set<import("node:child_process").ChildProcess>();

/** `ns:name` → `ns:config:name`, the key form `@pulumi/pulumi` reads from PULUMI_CONFIG. */
function legacyConfigKey(key: string): string {
  const parts = key.split(":");
  if (parts.length >= 3 && parts[1] === "config") return key;
  const [namespace, ...rest] = parts;
  return `${namespace}:config:${rest.join(":")}`;
}

function resolveRunScript(programDirectory: string): string {
  const override = process.env.PULUMI_LANGUAGE_NODEJS_RUN_PATH ?? "@pulumi/pulumi/cmd/run";
  return require.resolve(override, { paths: [programDirectory] });
}

function runArguments(req: LanguagePb.RunRequest, runScript: string): string[] {
  const info = req.getInfo();
  const args = [runScript];
  const add = (flag: string, value: string | number | undefined) => {
    if (value !== undefined && value !== "" && value !== 0) args.push(`--${flag}`, String(value));
  };
  add("monitor", req.getMonitorAddress());
  add("engine", engineAddress);
  add("organization", req.getOrganization());
  add("project", req.getProject());
  add("root-directory", info?.getRootDirectory());
  add("stack", req.getStack());
  add("pwd", info?.getProgramDirectory() || req.getPwd());
  if (req.getDryrun()) args.push("--dry-run");
  add("parallel", req.getParallel());
  args.push(info?.getEntryPoint() || req.getProgram() || ".");
  args.push(...req.getArgsList());
  return args;
}

function runEnvironment(req: LanguagePb.RunRequest): NodeJS.ProcessEnv {
  const config: Record<string, string> = {};
  req.getConfigMap().forEach((value, key) => {
    config[legacyConfigKey(key)] = value;
  });
  const options = (req.getInfo()?.getOptions()?.toJavaScript() ?? {}) as Record<string, unknown>;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PULUMI_CONFIG: JSON.stringify(config),
    PULUMI_CONFIG_SECRET_KEYS: JSON.stringify(req.getConfigsecretkeysList()),
  };
  if (options.typescript !== false) env.PULUMI_NODEJS_TYPESCRIPT = "true";
  if (typeof options.tsconfig === "string") env.PULUMI_NODEJS_TSCONFIG_PATH = options.tsconfig;
  return env;
}

const run: Unary<LanguagePb.RunRequest, LanguagePb.RunResponse> = (call, callback) => {
  const req = call.request;
  const response = new languagePb.RunResponse();
  const programDirectory = req.getInfo()?.getProgramDirectory() || req.getPwd() || process.cwd();
  let runScript: string;
  try {
    runScript = resolveRunScript(programDirectory);
  } catch (error) {
    response.setError(
      `could not find @pulumi/pulumi in ${programDirectory}: run npm install (${String(error)})`,
    );
    callback(null, response);
    return;
  }
  const options = (req.getInfo()?.getOptions()?.toJavaScript() ?? {}) as Record<string, unknown>;
  const nodeargs = typeof options.nodeargs === "string" ? options.nodeargs.split(/\s+/).filter(Boolean) : [];
  const child = childProcess.spawn(process.execPath, [...nodeargs, ...runArguments(req, runScript)], {
    cwd: programDirectory,
    env: runEnvironment(req),
    stdio: ["ignore", "inherit", "inherit"],
  });
  running.add(child);
  child.on("error", (error) => {
    running.delete(child);
    response.setError(`Problem executing program (could not run language executor): ${error.message}`);
    callback(null, response);
  });
  child.on("exit", (code, signal) => {
    running.delete(child);
    if (code === EXIT_AFTER_USER_MESSAGE) response.setBail(true);
    else if (code !== 0) response.setError(`Program exited with non-zero exit code: ${code ?? signal}`);
    callback(null, response);
  });
};

const handshake: Unary<LanguagePb.LanguageHandshakeRequest, LanguagePb.LanguageHandshakeResponse> = (
  call,
  callback,
) => {
  engineAddress = call.request.getEngineAddress() || engineAddress;
  callback(null, new languagePb.LanguageHandshakeResponse());
};

const getPluginInfo: Unary<object, PluginPb.PluginInfo> = (_call, callback) => {
  const info = new pluginPb.PluginInfo();
  info.setVersion(HOST_VERSION);
  callback(null, info);
};

const getRequiredPlugins: Unary<object, LanguagePb.GetRequiredPluginsResponse> = (_call, callback) =>
  callback(null, new languagePb.GetRequiredPluginsResponse());

const getRequiredPackages: Unary<object, LanguagePb.GetRequiredPackagesResponse> = (_call, callback) =>
  callback(null, new languagePb.GetRequiredPackagesResponse());

const runtimeOptionsPrompts: Unary<object, LanguagePb.RuntimeOptionsResponse> = (_call, callback) =>
  callback(null, new languagePb.RuntimeOptionsResponse());

const about: Unary<object, LanguagePb.AboutResponse> = (_call, callback) => {
  const res = new languagePb.AboutResponse();
  res.setExecutable(process.execPath);
  res.setVersion(process.version);
  callback(null, res);
};

const getProgramDependencies: Unary<
  LanguagePb.GetProgramDependenciesRequest,
  LanguagePb.GetProgramDependenciesResponse
> = (call, callback) => {
  const res = new languagePb.GetProgramDependenciesResponse();
  const dir = call.request.getInfo()?.getProgramDirectory() || process.cwd();
  try {
    const pkg = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8")) as {
      dependencies?: Record<string, string>;
    };
    for (const [name, version] of Object.entries(pkg.dependencies ?? {})) {
      const dep = new languagePb.DependencyInfo();
      dep.setName(name);
      dep.setVersion(version);
      res.addDependencies(dep);
    }
  } catch {
    // A program without package.json has no dependencies to report.
  }
  callback(null, res);
};

/** `pulumi install`: runs `npm install` in the program directory and streams its output. */
function installDependencies(
  call: GrpcJs.ServerWritableStream<
    LanguagePb.InstallDependenciesRequest,
    LanguagePb.InstallDependenciesResponse
  >,
): void {
  const dir = call.request.getInfo()?.getProgramDirectory() || process.cwd();
  const child = childProcess.spawn("npm", ["install", "--no-audit", "--no-fund"], { cwd: dir });
  const forward = (stream: "stdout" | "stderr") => (chunk: Buffer) => {
    const res = new languagePb.InstallDependenciesResponse();
    if (stream === "stdout") res.setStdout(chunk);
    else res.setStderr(chunk);
    call.write(res);
  };
  child.stdout.on("data", forward("stdout"));
  child.stderr.on("data", forward("stderr"));
  child.on("exit", (code) => {
    if (code === 0) call.end();
    else
      call.destroy(
        Object.assign(new Error(`npm install exited with code ${code}`), { code: grpc.status.UNKNOWN }),
      );
  });
}

function main(): void {
  if (process.argv.includes("-version") || process.argv.includes("--version")) {
    console.log(HOST_VERSION);
    return;
  }
  const server = new grpc.Server({ "grpc.max_receive_message_length": 400 * 1024 * 1024 });
  // Methods left out here answer UNIMPLEMENTED, which the engine handles for optional calls.
  server.addService(languageGrpc.LanguageRuntimeService, {
    handshake,
    getRequiredPlugins,
    getRequiredPackages,
    run,
    getPluginInfo,
    installDependencies,
    runtimeOptionsPrompts,
    about,
    getProgramDependencies,
  } as unknown as GrpcJs.UntypedServiceImplementation);
  server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (error, port) => {
    if (error) {
      console.error(`could not start the language host: ${error.message}`);
      process.exit(1);
    }
    process.stdout.write(`${port}\n`);
  });
  const shutdown = () => {
    for (const child of running) child.kill("SIGINT");
    server.forceShutdown();
    process.exit(0);
  };
  process.on("SIGINT", shutdown);
  process.on("SIGTERM", shutdown);
  // Like Pulumi's own hosts, leave when the engine is gone, so a killed CLI leaves no orphan.
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent) shutdown();
  }, 1000).unref();
}

main();
