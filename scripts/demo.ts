/**
 * `npm run demo`: deploys examples/fleet (the root Pulumi.yaml) to the local platform emulator and
 * shows the result. Idempotent: the emulator keeps its state in .demo/, so a second run finds the
 * fleet in place. `npm run demo -- --destroy` tears everything down.
 *
 * Everything lives under .demo/ (git-ignored): the emulator's state file, a file backend and a
 * PULUMI_HOME, so the demo touches nothing of the user's own Pulumi setup.
 */
import { execFileSync, spawn, spawnSync, type ChildProcess } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { createInterface } from "node:readline";

const root = path.resolve(__dirname, "..");
const demoDir = path.join(root, ".demo");
const STACK = "demo";
const destroy = process.argv.includes("--destroy");

function section(title: string): void {
  console.log(`\n\u001b[1m== ${title}\u001b[0m`);
}

/**
 * The demo deploys the example in place, so the package is installed into node_modules as a user's
 * project has it (package.json and dist/): the program imports it from there, and the dynamic
 * provider host loads it from there at run time.
 */
function installPackageIntoNodeModules(): void {
  const target = path.join(root, "node_modules", "pulumi-devplatform");
  rmSync(target, { recursive: true, force: true });
  mkdirSync(target, { recursive: true });
  cpSync(path.join(root, "package.json"), path.join(target, "package.json"));
  cpSync(path.join(root, "dist"), path.join(target, "dist"), { recursive: true });
}

function pulumiEnv(pulumiDir: string): NodeJS.ProcessEnv {
  return {
    ...process.env,
    PATH: `${pulumiDir}${path.delimiter}${process.env.PATH ?? ""}`,
    PULUMI_HOME: path.join(demoDir, "pulumi-home"),
    PULUMI_BACKEND_URL: `file://${path.join(demoDir, "state")}`,
    // The demo stack's secrets (the client secret) are encrypted with this local passphrase.
    PULUMI_CONFIG_PASSPHRASE: "devplatform-demo",
    PULUMI_SKIP_UPDATE_CHECK: "true",
  };
}

function pulumi(env: NodeJS.ProcessEnv, args: string[], options: { quiet?: boolean } = {}): number {
  const result = spawnSync("pulumi", ["--non-interactive", ...args], {
    cwd: root,
    env,
    stdio: options.quiet ? ["ignore", "ignore", "inherit"] : "inherit",
  });
  return result.status ?? 1;
}

function pulumiOutput(env: NodeJS.ProcessEnv, args: string[]): string {
  return execFileSync("pulumi", ["--non-interactive", ...args], { cwd: root, env, encoding: "utf8" });
}

const portFile = path.join(demoDir, "emulator-port");

/**
 * Starts the emulator with the demo's state file, on the port of the previous run when it is free
 * (the stack's recorded configuration names it), and resolves with its URL.
 */
async function startEmulator(): Promise<{ url: string; process: ChildProcess }> {
  const previous = existsSync(portFile) ? readFileSync(portFile, "utf8").trim() : "0";
  const started = await startEmulatorOn(previous).catch(() => startEmulatorOn("0"));
  writeFileSync(portFile, new URL(started.url).port);
  return started;
}

function startEmulatorOn(port: string): Promise<{ url: string; process: ChildProcess }> {
  const child = spawn(
    process.execPath,
    [
      path.join(root, "dist/emulator/cli.js"),
      "--port",
      port,
      "--state",
      path.join(demoDir, "emulator-state.json"),
    ],
    { cwd: root, stdio: ["ignore", "pipe", "inherit"] },
  );
  const stdout = child.stdout;
  if (!stdout) throw new Error("the emulator's stdout is not a pipe");
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: stdout });
    lines.once("line", (line) => {
      const match = /^devplatform-emulator listening on (http:\/\/\S+)$/.exec(line);
      if (match?.[1]) resolve({ url: match[1], process: child });
      else reject(new Error(`unexpected first line from the emulator: ${line}`));
    });
    child.once("exit", (code) => reject(new Error(`the emulator exited with code ${code}`)));
  });
}

async function stopEmulator(child: ChildProcess): Promise<void> {
  await new Promise<void>((resolve) => {
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
}

interface FleetRow {
  sn: string;
  deviceId: string;
  name: string;
  group: string;
  model?: string;
  deviceType?: string;
  tags?: string[];
}

function printTable(rows: FleetRow[]): void {
  const header = ["serial", "deviceId", "name", "fleet", "model", "type", "tags"];
  const cells = rows.map((r) => [
    r.sn,
    r.deviceId,
    r.name,
    r.group,
    r.model ?? "",
    r.deviceType ?? "",
    (r.tags ?? []).join(", "),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => (c[i] ?? "").length)));
  const line = (values: string[]) => values.map((v, i) => v.padEnd(widths[i] ?? 0)).join("  ");
  console.log(line(header));
  console.log(widths.map((w) => "-".repeat(w)).join("  "));
  for (const row of cells) console.log(line(row));
}

async function main(): Promise<void> {
  mkdirSync(path.join(demoDir, "state"), { recursive: true });
  section("building pulumi-devplatform");
  execFileSync("npm", ["run", "--silent", "build"], { cwd: root, stdio: "inherit" });
  installPackageIntoNodeModules();
  const pulumiDir = execFileSync("bash", [path.join(root, "scripts/provision-pulumi.sh")], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  }).trim();
  const env = pulumiEnv(pulumiDir);

  section("starting the platform emulator (state in .demo/emulator-state.json)");
  const emulator = await startEmulator();
  console.log(`emulator at ${emulator.url}`);
  try {
    if (pulumi(env, ["stack", "select", "--create", STACK], { quiet: true }) !== 0)
      throw new Error("stack select failed");
    const recordedUrl = spawnSync("pulumi", ["config", "get", "devplatform:baseUrl"], {
      cwd: root,
      env,
      encoding: "utf8",
    }).stdout.trim();
    pulumi(env, ["config", "set", "devplatform:baseUrl", emulator.url], { quiet: true });
    pulumi(env, ["config", "set", "devplatform:clientId", "demo-client"], { quiet: true });
    pulumi(env, ["config", "set", "--secret", "devplatform:clientSecret", "demo-secret"], { quiet: true });

    if (destroy) {
      // `destroy` runs no program: the engine configures the provider from what the last `up`
      // recorded. If the emulator moved to another port, record its new URL first.
      if (recordedUrl && recordedUrl !== emulator.url) {
        section("pulumi up (records the emulator's new address)");
        if (pulumi(env, ["up", "--yes", "--skip-preview"]) !== 0) throw new Error("pulumi up failed");
      }
      section("pulumi destroy");
      if (pulumi(env, ["destroy", "--yes", "--skip-preview"]) !== 0) throw new Error("pulumi destroy failed");
      await stopEmulator(emulator.process);
      rmSync(demoDir, { recursive: true, force: true });
      rmSync(path.join(root, `Pulumi.${STACK}.yaml`), { force: true });
      console.log("\nThe demo fleet is gone and .demo/ is removed.");
      return;
    }

    section("pulumi up (examples/fleet)");
    if (pulumi(env, ["up", "--yes", "--skip-preview"]) !== 0) throw new Error("pulumi up failed");

    section("the fleet on the platform");
    printTable(JSON.parse(pulumiOutput(env, ["stack", "output", "fleet", "--json"])) as FleetRow[]);

    section("a second pulumi preview: nothing to change");
    if (pulumi(env, ["preview", "--expect-no-changes"]) !== 0)
      throw new Error("the second preview found changes");
    console.log(
      "\nDone. Run `npm run demo` again (idempotent), or `npm run demo -- --destroy` to tear it down.",
    );
  } finally {
    if (emulator.process.exitCode === null) await stopEmulator(emulator.process);
  }
}

main().catch((error: unknown) => {
  console.error(`\ndemo failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
