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

const FLEET_DEVICES = `// One DeviceFleet per platform project; devices without a project are in "fleet-unassigned".
// A fleet's name comes from its project, so moving a device to another project moves it to that
// project's fleet: one \`pulumi up\` retags it in place (one PUT; its deviceId and configuration stay).
// Deleting a line deletes the device from the platform at the next \`pulumi up\` (give a fleet
// onRemove: "release" to stop managing such devices instead).
const fleets = groupByProject(inventory).map(
  (group) =>
    // Each entry of readInventory is a DeviceFleet device declaration as it is.
    new DeviceFleet(\`fleet-\${group.key}\`, { devices: group.entries }),
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
  deviceIds[sn] = new Device(sn, { sn, name, project, description, tags }).deviceId;
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

/** The program's text. */
export function indexTs(options: IndexOptions): string {
  return (
    [
      header(options),
      imports(options),
      `const dataFile = (name: string) => path.join(__dirname, name);
const inventory = readInventory(dataFile("inventory.csv"));`,
      options.style === "fleet" ? FLEET_DEVICES : SINGLE_DEVICES,
      ...(options.rps ? [rpsSection(options.rpsEmpty === true)] : []),
      ...(options.config ? [configSection(options.style)] : []),
      "export const deviceCount = inventory.length;",
    ].join("\n\n") + "\n"
  );
}
