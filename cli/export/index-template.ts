/**
 * The `index.ts` of a generated project. It reads the data files at run time — the inventory is
 * what people change in pull requests, never this program — and declares the fleet either as one
 * DeviceFleet per platform project (`fleet`) or one Device per inventory line (`devices`).
 */

/** How the devices are declared. */
export type ExportStyle = "fleet" | "devices";

/** What the program is generated for. */
export interface IndexOptions {
  readonly style: ExportStyle;
  /** `rps.csv` was written. */
  readonly rps: boolean;
  /** `rps.csv` was written with no record (the application had none): the program reads it as such. */
  readonly rpsEmpty?: boolean;
  /** `config.json` was written. */
  readonly config: boolean;
  /**
   * What `--take-over` takes over: the stacks whose owner tags the exported devices carry, and
   * those devices' serial numbers (for one Device each). Absent without `--take-over`.
   */
  readonly takeOver?: { readonly stacks: readonly string[]; readonly serials: readonly string[] };
}

const FILES = {
  inventory:
    '//   inventory.csv  one device a line: sn,name,project,description,tags (tags separated by ";")',
  rps: "//   rps.csv        RPS records of devices not yet on the platform: sn,profileUrl",
  config: "//   config.json    device configuration: groups of serial numbers that share property values",
};

function header({ rps, config }: IndexOptions): string {
  return [
    "// The device platform fleet, declared from the data files beside this program (written by",
    "// `devplatform export`). Change the fleet by editing them, not this program:",
    FILES.inventory,
    ...(rps ? [FILES.rps] : []),
    ...(config ? [FILES.config] : []),
    "// The first `pulumi up` adopts what is already on the platform by serial number.",
  ].join("\n");
}

function imports({ style, rps, config }: IndexOptions): string {
  const resources = [
    ...(config ? ["DeviceConfig"] : []),
    style === "fleet" ? "DeviceFleet" : "Device",
    ...(rps ? ["RpsFleet"] : []),
  ].sort();
  const readers = [
    ...(style === "fleet" ? ["groupByProject"] : []),
    ...(config ? ["readConfigGroups"] : []),
    "readInventory",
    ...(rps ? ["readRps"] : []),
  ];
  return [
    'import * as path from "node:path";',
    'import * as pulumi from "@pulumi/pulumi";',
    `import { ${resources.join(", ")} } from "pulumi-devplatform";`,
    `import { ${readers.join(", ")} } from "pulumi-devplatform/inventory";`,
  ].join("\n");
}

/** The take-over lines of `--take-over`: the stacks whose owner tags the exported devices carry. */
function takeOverLines(options: IndexOptions): string | undefined {
  if (options.takeOver === undefined || options.takeOver.stacks.length === 0) return undefined;
  const { stacks, serials } = options.takeOver;
  return options.style === "fleet"
    ? `// These stacks' owner tags are on exported devices (\`devplatform export --take-over\`): the fleets take
// their devices over, rewriting each one's tag to name this stack. Remove this once the first \`up\` is done.
const takeOverFrom = ${JSON.stringify(stacks)};`
    : `// Devices that carry the owner tag of ${stacks.map((s) => JSON.stringify(s)).join(", ")} (\`devplatform export --take-over\`):
// taken over, their tag rewritten to name this stack. Remove this once the first \`up\` is done.
const takeOver = new Set<string>(${JSON.stringify(serials)});`;
}

const FLEET_DEVICES = `// One DeviceFleet per platform project; devices without a project are in "fleet-unassigned".
// A fleet's name comes from its project, so moving a device to another project moves it to that
// project's fleet: one \`pulumi up\` retags it in place (one PUT; its deviceId and configuration stay).
// Deleting a line deletes the device from the platform at the next \`pulumi up\` (give a fleet
// onRemove: "release" to stop managing such devices instead).
const fleets = groupByProject(inventory).map(
  (group) =>
    // Each entry of readInventory is a DeviceFleet device declaration as it is.
    new DeviceFleet(\`fleet-\${group.key}\`, { devices: group.entries /*TAKE_OVER_FROM*/ }),
);

/** Serial number → deviceId of every device, across the fleets. */
export const deviceIds = pulumi
  .all(fleets.map((fleet) => fleet.deviceIds))
  .apply((maps) => Object.fromEntries(maps.flatMap((ids) => Object.entries(ids))));

/** The deviceId of a device of the inventory, once its fleet knows it. */
function deviceIdOf(sn: string): pulumi.Output<string> {
  return deviceIds.apply((ids) => {
    const id = ids[sn];
    if (id === undefined) throw new Error(\`no deviceId for \${sn}\`);
    return id;
  });
}`;

const SINGLE_DEVICES = `// One Device per inventory line, named by its serial number: a resource's name is its identity in
// Pulumi's state, so renaming a device (the name column) updates it in place. Deleting a line
// deletes the device from the platform at the next \`pulumi up\`. deviceIds (serial number →
// deviceId) is a stack output.
export const deviceIds: Record<string, pulumi.Output<string>> = {};
for (const { sn, name, project, description, tags } of inventory) {
  deviceIds[sn] = new Device(sn, { sn, name, project, description, tags /*TAKE_OVER*/ }).deviceId;
}`;

/** The RPS section: every record of rps.csv in one RpsFleet (a batch of thousands is one resource). */
function rpsSection(empty: boolean): string {
  const options = empty ? ", { allowEmpty: true }" : "";
  return `// RPS records: devices staged for provisioning, not yet on the platform, as one batch keyed by
// serial number. Deleting a line deletes the record at the next \`pulumi up\`; a batch without
// maxRemovals stops before deleting more than half its records at once (an emptied or cut file).
export const rpsRecords = new RpsFleet("rps-records", {
  records: readRps(dataFile("rps.csv")${options}),
}).profileUrls.apply((urls) => Object.keys(urls).length);`;
}

function configSection(style: ExportStyle): string {
  const id = style === "fleet" ? "deviceIdOf(sn)" : "deviceIds[sn]";
  return `// One DeviceConfig per group of config.json, named by the group's name: the devices that share the
// same settings, validated against each device's TSL model before anything is written. Every
// serial number must be in inventory.csv.
for (const group of readConfigGroups(dataFile("config.json"), inventory)) {
  new DeviceConfig(group.name, {
    deviceIds: group.serials.map((sn) => ${id}),
    properties: group.properties,
  });
}`;
}

/** The fleets' or Devices' declarations, with the take-over when there is one. */
function declarations(options: IndexOptions): string {
  const taking = takeOverLines(options) !== undefined;
  return options.style === "fleet"
    ? FLEET_DEVICES.replace(" /*TAKE_OVER_FROM*/", taking ? ", takeOverFrom" : "")
    : SINGLE_DEVICES.replace(" /*TAKE_OVER*/", taking ? ", takeOver: takeOver.has(sn)" : "");
}

/** The program's text. */
export function indexTs(options: IndexOptions): string {
  return (
    [
      header(options),
      imports(options),
      `const dataFile = (name: string) => path.join(__dirname, name);
const inventory = readInventory(dataFile("inventory.csv"));`,
      ...(takeOverLines(options) === undefined ? [] : [takeOverLines(options) as string]),
      declarations(options),
      ...(options.rps ? [rpsSection(options.rpsEmpty === true)] : []),
      ...(options.config ? [configSection(options.style)] : []),
      "export const deviceCount = inventory.length;",
    ].join("\n\n") + "\n"
  );
}
