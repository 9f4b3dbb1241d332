/**
 * Progress on long work, on the real CLI: a DeviceFleet of 120 devices reports how far its create
 * is ("DeviceFleet site-a: 12 of 120 devices reconciled", …) as ephemeral status lines on the
 * fleet's own row (the engine's events carry the fleet's URN), and so does its destroy — in the
 * dynamic front-end and in the plugin's.
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { deviceFleetProgram, serialNumbers } from "./support/fleet-programs";
import { createProject } from "./support/e2e-project";
import { createPluginProject, pluginProgram } from "./support/plugin-programs";
import { assertOk, type CommandResult, type PulumiProject } from "./support/pulumi-project";

const COUNT = 120;
const FLEET_URN = /::pulumi-nodejs:dynamic\/devplatform:DeviceFleet::site-a$/;
const PLUGIN_FLEET_URN = /::devplatform:index:DeviceFleet::site-a$/;

function progressLines(result: CommandResult, verb: string) {
  return result.diagnostics.filter((d) =>
    new RegExp(`^DeviceFleet site-a: [\\d,]+ of ${COUNT} devices ${verb}`).test(d.message.trim()),
  );
}

/** Create and destroy a fleet of COUNT, asserting the progress lines land on the fleet's row. */
async function createAndDestroy(project: PulumiProject, urn: RegExp, prefix: string): Promise<void> {
  const devices = serialNumbers(COUNT, prefix).map((sn, i) => ({ sn, name: `p-${i}` }));
  writeFileSync(path.join(project.dir, "fleet.json"), JSON.stringify(devices));
  const up = assertOk(await project.up());
  const created = progressLines(up, "reconciled");
  console.log(`create: ${created.map((d) => d.message.trim()).join(" | ")}`);
  expect(created.length).toBeGreaterThan(0);
  for (const line of created)
    expect(line).toMatchObject({ ephemeral: true, urn: expect.stringMatching(urn) });
  expect(created.map((d) => d.message.trim())).toContain(
    `DeviceFleet site-a: ${COUNT} of ${COUNT} devices reconciled`,
  );
  const destroy = assertOk(await project.destroy());
  const removed = progressLines(destroy, "removed");
  console.log(`destroy: ${removed.map((d) => d.message.trim()).join(" | ")}`);
  expect(removed.length).toBeGreaterThan(0);
  for (const line of removed)
    expect(line).toMatchObject({ ephemeral: true, urn: expect.stringMatching(urn) });
}

describe(`progress of a DeviceFleet of ${COUNT} devices (plugin front-end)`, () => {
  it("shows ephemeral status lines on the fleet's row, in the create and in the destroy", async () => {
    const program = pluginProgram([]).replace(
      "export const ids",
      `const devices = JSON.parse(require("node:fs").readFileSync(__dirname + "/fleet.json", "utf8"));\n` +
        `new Resource("devplatform:index:DeviceFleet", "site-a", { devices });\nexport const ids`,
    );
    const project = await createPluginProject({ name: "progress-plugin", program });
    await createAndDestroy(project, PLUGIN_FLEET_URN, "27");
  });
});

describe(`progress of a DeviceFleet of ${COUNT} devices (dynamic front-end)`, () => {
  it("shows ephemeral status lines on the fleet's row, in the create and in the destroy", async () => {
    const project = await createProject({ name: "progress", program: deviceFleetProgram("site-a") });
    await createAndDestroy(project, FLEET_URN, "26");
  });
});
