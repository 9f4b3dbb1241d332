/**
 * Moving the demo's stack from the dynamic resources to the provider plugin in one `up`, on the
 * real CLI: `examples/fleet` (a DeviceFleet and a DeviceConfig per group) plus a Device and an
 * RpsProfile, deployed with the dynamic resources, then the same declared with
 * `devplatform:index:*` resources. The plugin's resources adopt everything and the dynamic ones'
 * deletes let go: 0 POST/PUT/PATCH/DELETE, every deviceId, record and property kept, and the next
 * preview is empty. Then back again, the same way.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { EmulatorControl } from "../../emulator";
import { e2e } from "./support/e2e-context";
import { assertOk, resourcesOfType, type PulumiProject } from "./support/pulumi-project";
import { createPluginProject } from "./support/plugin-programs";
import { writesOf } from "./support/platform-writes";

const examplesDir = path.resolve(__dirname, "../../examples/fleet");
const DEVICE_SN = "240000A1F001";
const RPS_SN = "AC0000A1F001";
const PROFILE_URL = "https://rps.example.com/move";

/** The example's files but index.ts (its data and group configuration). */
function exampleFiles(): Record<string, string> {
  const files = readdirSync(examplesDir).filter((f) => /\.(ts|csv)$/.test(f) && f !== "index.ts");
  return Object.fromEntries(files.map((f) => [f, readFileSync(path.join(examplesDir, f), "utf8")]));
}

/** The demo as it is, with a Device and an RpsProfile: the dynamic resources. */
function dynamicProgram(): string {
  return (
    readFileSync(path.join(examplesDir, "index.ts"), "utf8") +
    `\nimport { Device, RpsProfile } from "pulumi-devplatform";\n` +
    `new Device("spare", { sn: ${JSON.stringify(DEVICE_SN)}, name: "spare-sensor" });\n` +
    `new RpsProfile("provisioning", { sn: ${JSON.stringify(RPS_SN)}, profileUrl: ${JSON.stringify(PROFILE_URL)} });\n`
  );
}

/** The same declarations on the plugin (`pulumi.CustomResource` until a generated SDK is used). */
function pluginProgram(): string {
  return `
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { readInventoryRecords, type InventoryEntry } from "pulumi-devplatform/inventory";
import { GROUP_CONFIG } from "./group-config";

class Resource extends pulumi.CustomResource {
  constructor(kind: string, name: string, props: pulumi.Inputs) {
    super(\`devplatform:index:\${kind}\`, name, props);
  }
}
const config = new pulumi.Config("fleet");
const inventory = readInventoryRecords(path.resolve(__dirname, "inventory.csv"), ["group"]);
const project = config.get("project") ?? "demo";
const maxRemovals = config.getNumber("maxRemovals") ?? 1;
const groups = new Map<string, InventoryEntry[]>(Object.keys(GROUP_CONFIG).map((group) => [group, []]));
for (const { device, columns } of inventory) {
  const group = columns.group || "ungrouped";
  groups.set(group, [...(groups.get(group) ?? []), device]);
}
export const deviceIds: Record<string, pulumi.Output<unknown>> = {};
for (const [group, entries] of groups) {
  const devices = entries.map((entry) => ({
    sn: entry.sn,
    name: entry.name,
    project,
    description: \`\${group} device managed by Pulumi\`,
    tags: [\`group:\${group}\`, ...(entry.tags ?? [])],
  }));
  const fleet = new Resource("DeviceFleet", group, { devices, maxRemovals, deviceIds: undefined });
  const ids = (fleet as unknown as { deviceIds: pulumi.Output<Record<string, string>> }).deviceIds;
  deviceIds[group] = ids;
  const properties = GROUP_CONFIG[group];
  if (properties && devices.length > 0) {
    new Resource("DeviceConfig", \`\${group}-config\`, { deviceIds: ids, properties });
  }
}
new Resource("Device", "spare", { sn: ${JSON.stringify(DEVICE_SN)}, name: "spare-sensor" });
new Resource("RpsProfile", "provisioning", { sn: ${JSON.stringify(RPS_SN)}, profileUrl: ${JSON.stringify(PROFILE_URL)} });
`;
}

describe("moving the demo's stack between the dynamic resources and the plugin", () => {
  let control: EmulatorControl;
  let project: PulumiProject;

  /** What must survive a move: every device as the platform has it, the RPS record, each device's properties. */
  async function platformSnapshot() {
    const state = await control.state();
    const devices = state.devices
      .filter((d) => d.project === "move-demo" || d.sn === DEVICE_SN)
      // The whole record: ids, names, tags, project, properties, timestamps (nothing written).
      .sort((a, b) => a.sn.localeCompare(b.sn));
    const records = state.rpsRecords.filter((r) => r.sn === RPS_SN);
    return { devices, records };
  }

  /** One `up` on `program`, counted: the engine's changes and the platform's writes. */
  async function move(program: string, label: string) {
    const before = await platformSnapshot();
    project.setProgram(program);
    await control.resetCounters();
    const up = assertOk(await project.up());
    const { byRoute, total } = await control.counters();
    const writes = writesOf(byRoute);
    console.log(
      `${label}: ${JSON.stringify(up.changes)}; ${total} platform requests (${JSON.stringify(byRoute)}); writes ${JSON.stringify(writes)}`,
    );
    expect(writes).toEqual({});
    // The figure of docs/guides/moving-to-the-plugin.md for the move: 2 tokens, 8 searches, 1 RPS listing, 7 TSL models, 7 configurations.
    expect(total).toBe(25);
    expect(await platformSnapshot()).toEqual(before);
    assertOk(await project.preview({ expectNoChanges: true }));
    return up;
  }

  beforeAll(async () => {
    control = new EmulatorControl(e2e().emulatorUrl);
    project = await createPluginProject({
      name: "plugin-move",
      program: dynamicProgram(),
      files: exampleFiles(),
      config: { "fleet:project": "move-demo" },
    });
    assertOk(await project.up());
  });

  it("moves to the plugin in one up with no write, and the next preview is empty", async () => {
    const snapshot = await platformSnapshot();
    expect(snapshot.devices).toHaveLength(8);
    expect(snapshot.records).toHaveLength(1);
    const up = await move(pluginProgram(), "dynamic → plugin");
    expect(up.changes).toMatchObject({ create: 8, delete: 8 });
    const stack = await project.exportStack();
    expect(resourcesOfType(stack, "devplatform:index:DeviceFleet")).toHaveLength(3);
    expect(resourcesOfType(stack, "pulumi-nodejs:dynamic/devplatform:DeviceFleet")).toHaveLength(0);
    const said = (pattern: RegExp) => up.diagnostics.filter((d) => pattern.test(d.message)).length;
    expect(said(/served by another provider process of this deployment/)).toBeGreaterThan(0);
  });

  it("moves back to the dynamic resources the same way", async () => {
    const up = await move(dynamicProgram(), "plugin → dynamic");
    expect(up.changes).toMatchObject({ create: 8, delete: 8 });
    assertOk(await project.destroy());
    expect((await platformSnapshot()).devices).toEqual([]);
  });
});
