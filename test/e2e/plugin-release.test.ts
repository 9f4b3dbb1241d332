/**
 * The plugin and its SDKs as a release delivers them, with no Node.js 22 on PATH: the archive
 * (`npm run plugin:archive`) on a release server on loopback, which the schema's
 * `pluginDownloadURL` names through `PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES` (a mirror, as a company
 * would point at its own); each project has a fresh PULUMI_HOME with an empty plugin cache, and
 * automatic acquisition on (the rest of the suite turns it off).
 *
 * - the archive holds one file, the executable;
 * - `pulumi plugin install resource devplatform VERSION --server URL` (or `--file ARCHIVE`)
 *   installs it, and it runs;
 * - a YAML program's `pulumi up` acquires the plugin itself (YAML names the version and source in
 *   its resource options, as YAML programs do for any third-party provider);
 * - a Python program, its SDK installed with pip from the wheel `scripts/package-sdks.sh` builds,
 *   acquires it from the server the SDK's plugin metadata names;
 * - the sdist installs with pip too, carrying the same metadata.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EmulatorControl } from "../../emulator";
import { PLUGIN_DOWNLOAD_URL } from "../../provider/plugin/schema";
import { serialNumbers } from "./support/fleet-programs";
import { provisionPython } from "./support/plugin-toolchain";
import { assertOk, PulumiProject, type RunOptions } from "./support/pulumi-project";
import { startReleaseServer, type ReleaseServer } from "./support/release-server";
import { e2e } from "./support/e2e-context";
import { nodeMajorIn, pathWithoutNode22 } from "./support/without-node";

const repoRoot = path.resolve(__dirname, "../..");
const VERSION = (JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8")) as { version: string })
  .version;
const ARCHIVE = `pulumi-resource-devplatform-v${VERSION}-linux-amd64.tar.gz`;

function run(command: string, args: string[], env: NodeJS.ProcessEnv = process.env): string {
  return execFileSync(command, args, {
    cwd: repoRoot,
    encoding: "utf8",
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
}

describe("the release: plugin archives on a server, SDK packages, no Node.js 22", () => {
  let control: EmulatorControl;
  let server: ReleaseServer;
  let venv: string;
  let releaseDir: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    const context = e2e();
    control = new EmulatorControl(context.emulatorUrl);
    releaseDir = path.join(context.workDir, "release");
    // Built once per source version: the archive script caches it under the provisioning cache.
    const archive = run("bash", ["scripts/plugin-archive.sh", releaseDir, "--targets", "linux-amd64"]).trim();
    expect(path.basename(archive)).toBe(ARCHIVE);
    server = await startReleaseServer(releaseDir, VERSION);
    venv = provisionPython();
    const source = PLUGIN_DOWNLOAD_URL.replace(/[.]/g, "\\.");
    env = {
      PATH: pathWithoutNode22([context.pulumiDir, path.join(venv, "bin")]),
      PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "false",
      PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES: `^${source}$=${server.downloadUrl}`,
      VIRTUAL_ENV: venv,
    };
  });

  afterAll(async () => {
    await server?.stop();
  });

  /** A project of `files` in a fresh directory (so a fresh, empty PULUMI_HOME), with its `dev` stack. */
  async function project(name: string, files: Record<string, string>): Promise<PulumiProject> {
    const context = e2e();
    const dir = mkdtempSync(path.join(context.workDir, `${name}-`));
    for (const [file, text] of Object.entries(files)) writeFileSync(path.join(dir, file), text);
    const opened = await PulumiProject.open(dir, name, context);
    expect(existsSync(path.join(dir, ".pulumi-home", "plugins"))).toBe(false);
    return opened;
  }

  const runOptions = (): RunOptions => ({ env });

  it("runs on a PATH whose node, if any, is older than 22", () => {
    const found =
      env.PATH?.split(path.delimiter)
        .map(nodeMajorIn)
        .filter((major) => major !== undefined) ?? [];
    expect(found.every((major) => major < 22)).toBe(true);
  });

  it("archives one executable, the one the engine runs", () => {
    const entries = run("tar", ["-tzf", path.join(releaseDir, ARCHIVE)])
      .split("\n")
      .filter(Boolean);
    expect(entries).toEqual(["pulumi-resource-devplatform"]);
  });

  it("installs with `pulumi plugin install … --server` and `--file`, and the installed executable runs without Node.js 22", async () => {
    const installer = await project("release-install", {
      "Pulumi.yaml": "name: release-install\nruntime: yaml\n",
    });
    const before = server.downloads(ARCHIVE);
    const install = ["plugin", "install", "resource", "devplatform", VERSION, "--server", server.downloadUrl];
    assertOk(await installer.cli(install, runOptions()));
    expect(server.downloads(ARCHIVE)).toBe(before + 1);
    const listed = assertOk(await installer.cli(["plugin", "ls"], runOptions()));
    expect(listed.stdout).toMatch(new RegExp(`devplatform\\s+resource\\s+${VERSION.replace(/\./g, "\\.")}`));
    const installed = path.join(installer.dir, ".pulumi-home", "plugins", `resource-devplatform-v${VERSION}`);
    const executable = path.join(installed, "pulumi-resource-devplatform");
    expect(run(executable, ["--version"], env).trim()).toBe(VERSION);

    const fromFile = await project("release-install-file", {
      "Pulumi.yaml": "name: release-install-file\nruntime: yaml\n",
    });
    const archive = path.join(releaseDir, ARCHIVE);
    assertOk(
      await fromFile.cli(
        ["plugin", "install", "resource", "devplatform", VERSION, "--file", archive],
        runOptions(),
      ),
    );
    expect(assertOk(await fromFile.cli(["plugin", "ls"], runOptions())).stdout).toMatch(
      /devplatform\s+resource/,
    );
    expect(server.downloads(ARCHIVE)).toBe(before + 1);
  });

  it("a YAML program's `pulumi up` acquires the plugin from the release server, then destroys", async () => {
    const sn = serialNumbers(1, "2A")[0] as string;
    const yaml = await project("release-yaml", {
      "Pulumi.yaml": [
        "name: release-yaml",
        "runtime: yaml",
        "resources:",
        "  device:",
        "    type: devplatform:index:Device",
        `    properties: { sn: "${sn}", name: release-yaml }`,
        "    options:",
        `      version: ${VERSION}`,
        `      pluginDownloadURL: ${PLUGIN_DOWNLOAD_URL}`,
        "outputs:",
        "  deviceId: ${device.deviceId}",
        "",
      ].join("\n"),
    });
    const before = server.downloads(ARCHIVE);
    const up = assertOk(await yaml.up(runOptions()));
    expect(up.changes).toEqual({ create: 2 });
    expect(server.downloads(ARCHIVE)).toBe(before + 1);
    expect((await control.state()).devices.find((d) => d.sn === sn)?.name).toBe("release-yaml");
    assertOk(await yaml.preview({ expectNoChanges: true }, runOptions()));
    expect(assertOk(await yaml.destroy(runOptions())).changes).toEqual({ delete: 2 });
    expect(server.downloads(ARCHIVE)).toBe(before + 1);
    expect((await control.state()).devices.find((d) => d.sn === sn)).toBeUndefined();
  });

  it("a Python program on the pip-installed SDK acquires the plugin from the server its metadata names", async () => {
    const sn = serialNumbers(1, "2B")[0] as string;
    const metadata = run(path.join(venv, "bin", "python"), [
      "-c",
      "import importlib.resources as r, pulumi_devplatform as p; print(r.files(p).joinpath('pulumi-plugin.json').read_text())",
    ]);
    expect(JSON.parse(metadata)).toEqual({
      resource: true,
      name: "devplatform",
      version: VERSION,
      server: PLUGIN_DOWNLOAD_URL,
    });
    const python = await project("release-python", {
      "Pulumi.yaml": "name: release-python\nruntime: python\n",
      "__main__.py": [
        "import pulumi",
        "import pulumi_devplatform as devplatform",
        "",
        `device = devplatform.Device("device", sn="${sn}", name="release-python")`,
        'pulumi.export("deviceId", device.device_id)',
        "",
      ].join("\n"),
    });
    const before = server.downloads(ARCHIVE);
    const up = assertOk(await python.up(runOptions()));
    expect(up.changes).toEqual({ create: 2 });
    expect(server.downloads(ARCHIVE)).toBe(before + 1);
    expect((await control.state()).devices.find((d) => d.sn === sn)?.name).toBe("release-python");
    expect(assertOk(await python.destroy(runOptions())).changes).toEqual({ delete: 2 });
    expect((await control.state()).devices.find((d) => d.sn === sn)).toBeUndefined();
  });

  it("the Python sdist installs with pip, with the same plugin metadata", () => {
    const out = path.join(e2e().workDir, "sdks");
    const sdist = run("bash", ["scripts/package-sdks.sh", out, "--python"])
      .trim()
      .split("\n")
      .find((file) => file.endsWith(`pulumi_devplatform-${VERSION}.tar.gz`));
    expect(sdist).toBeDefined();
    const target = path.join(out, "site");
    mkdirSync(target);
    run(path.join(venv, "bin", "pip"), [
      "install",
      "--quiet",
      "--no-deps",
      "--target",
      target,
      sdist as string,
    ]);
    const metadata = JSON.parse(
      readFileSync(path.join(target, "pulumi_devplatform", "pulumi-plugin.json"), "utf8"),
    );
    expect(metadata).toEqual({
      resource: true,
      name: "devplatform",
      version: VERSION,
      server: PLUGIN_DOWNLOAD_URL,
    });
  });
});
