/**
 * The npm launcher on a machine without Node.js 22 (PATH holding at most Debian's Node 20, an empty
 * provisioning cache): the engine's error quotes the launcher's message, which names what to do —
 * put Node.js 22 on PATH, set DEVPLATFORM_NODE, or use the plugin archive, which needs no Node.js.
 * Before, the launcher wrote it on stderr only, and the engine's error said only "could not read
 * plugin […]: exit status 1" after its "exited prematurely. This is *always* a bug in the provider".
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { pluginDir, pluginProjectYaml } from "./support/plugin-toolchain";
import { PulumiProject } from "./support/pulumi-project";
import { pathWithoutNode22 } from "./support/without-node";
import { e2e } from "./support/e2e-context";

describe("the npm launcher without Node.js 22", () => {
  it("fails the preview with an error that quotes what to do", async () => {
    const context = e2e();
    const dir = mkdtempSync(path.join(context.workDir, "launcher-without-node-"));
    const program = [
      "resources:",
      "  lobby:",
      "    type: devplatform:index:Device",
      '    properties: { sn: "240000A1FFFF", name: lobby }',
      "",
    ].join("\n");
    writeFileSync(
      path.join(dir, "Pulumi.yaml"),
      pluginProjectYaml("launcher-without-node", "yaml", pluginDir(context.nodeModules)) + program,
    );
    const project = await PulumiProject.open(dir, "launcher-without-node", context);
    const env = {
      PATH: pathWithoutNode22([context.pulumiDir]),
      DEVPLATFORM_CACHE: mkdtempSync(path.join(context.workDir, "empty-cache-")),
      DEVPLATFORM_NODE: "",
    };
    const preview = await project.preview({}, { env });
    expect(preview.exitCode).not.toBe(0);
    const output = preview.output;
    expect(output).toMatch(
      /wrote an invalid port to stdout: could not parse port: strconv\.Atoi: parsing "pulumi-resource-devplatform: the npm launcher needs Node\.js 22 or newer/,
    );
    expect(output).toContain("set DEVPLATFORM_NODE");
    expect(output).toContain("pulumi plugin install resource devplatform <version> --file ARCHIVE");
  });
});
