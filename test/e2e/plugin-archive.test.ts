/**
 * The plugin archive (`npm run plugin:archive`) installed as users install providers:
 * `pulumi plugin install resource devplatform VERSION --file …` into a fresh PULUMI_HOME, after which
 * a program whose Pulumi.yaml has no `plugins.providers` finds the plugin; before the install the
 * same program fails for want of it.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { EmulatorControl } from "../../emulator";
import { createProject } from "./support/e2e-project";
import { serialNumbers } from "./support/fleet-programs";
import { pluginProgram } from "./support/plugin-programs";
import { assertOk, type PulumiProject } from "./support/pulumi-project";

const repoRoot = path.resolve(__dirname, "../..");
const VERSION = (JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8")) as { version: string })
  .version;

describe("the plugin archive, installed with `pulumi plugin install`", () => {
  const sn = serialNumbers(1)[0] as string;
  let control: EmulatorControl;
  let project: PulumiProject;
  let archive: string;

  beforeAll(async () => {
    const e2e = inject("e2e");
    control = new EmulatorControl(e2e.emulatorUrl);
    const out = path.join(e2e.workDir, "plugin-archive");
    archive = execFileSync("bash", ["scripts/plugin-archive.sh", out, "--targets", "linux-amd64"], {
      cwd: repoRoot,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "inherit"],
    }).trim();
    // No `pluginPath`: the Pulumi.yaml names no plugin directory.
    project = await createProject({
      name: "plugin-archive",
      program: pluginProgram([{ kind: "Device", name: "device", props: { sn, name: "archive-device" } }]),
    });
  });

  it("holds one executable, the one the engine runs", () => {
    expect(path.basename(archive)).toBe(`pulumi-resource-devplatform-v${VERSION}-linux-amd64.tar.gz`);
    const entries = execFileSync("tar", ["-tzf", archive], { encoding: "utf8" }).split("\n").filter(Boolean);
    expect(entries).toEqual(["pulumi-resource-devplatform"]);
  });

  it("is what makes the program work: without it the preview fails for want of the plugin", async () => {
    const preview = await project.preview();
    expect(preview.exitCode).not.toBe(0);
    expect(preview.output).toMatch(/devplatform/);
    expect((await control.state()).devices.find((d) => d.sn === sn)).toBeUndefined();
  });

  it("installs into PULUMI_HOME and runs create, a clean preview and destroy", async () => {
    assertOk(await project.cli(["plugin", "install", "resource", "devplatform", VERSION, "--file", archive]));
    const listed = assertOk(await project.cli(["plugin", "ls"]));
    expect(listed.stdout).toMatch(new RegExp(`devplatform\\s+resource\\s+${VERSION.replace(/\./g, "\\.")}`));

    const up = assertOk(await project.up());
    expect(up.changes).toEqual({ create: 2 });
    const onPlatform = (await control.state()).devices.find((d) => d.sn === sn);
    expect(onPlatform?.name).toBe("archive-device");

    assertOk(await project.preview({ expectNoChanges: true }));
    const destroy = assertOk(await project.destroy());
    expect(destroy.changes).toEqual({ delete: 2 });
    expect((await control.state()).devices.find((d) => d.sn === sn)).toBeUndefined();
  });
});
