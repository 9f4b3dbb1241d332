/**
 * `devplatform:index:getDevices`: the devices of the application matching the filters of Search
 * Specific Devices (the SDK's `listDevices`, every page), and optionally a project.
 */
import {
  CONNECT_STATUSES,
  DEVICE_TYPES,
  LICENSE_STATUSES,
  type DeviceFilter,
  type DeviceDetails,
} from "../../sdk";
import { projectOf } from "../device/desired";
import { platformClient } from "../platform-access/platform-client";
import { describeFailure } from "../shared/errors";
import type { Inputs } from "../shared/input-checks";
import { element, integer, list, map, ref, string, type PropertySpec } from "../core/schema-spec";
import { ArgumentChecker } from "./arguments";
import { deviceInfoOf, deviceInfoType } from "./device-info";
import type { PackageFunction } from "./package-function";
import { withExamples } from "../core/schema-examples";
import { GET_DEVICES_EXAMPLES } from "./examples";

const NAME = "getDevices";

/** Search filters that take one string (partial matches, as the platform searches). */
const TEXT_FILTERS = {
  sn: "Serial number (the platform may match part of it).",
  devEUI: "EUI.",
  imei: "IMEI.",
  name: "Device name.",
  model: "Model.",
  hardwareVersion: "Hardware version.",
  firmwareVersion: "Firmware version.",
  description: "Description.",
  mac: "MAC address.",
  wlanMac: "WLAN MAC address.",
} as const;

/** Search filters that take a list of closed values. */
const CHOICE_FILTERS = {
  rpsStatus: { values: ["ENABLED", "DISABLED"], enum: "RpsStatusFilter", doc: "RPS statuses." },
  connectStatus: { values: CONNECT_STATUSES, enum: "ConnectStatus", doc: "Connection statuses." },
  deviceType: { values: DEVICE_TYPES, enum: "DeviceType", doc: "Device types." },
  licenseStatus: { values: LICENSE_STATUSES, enum: "LicenseStatus", doc: "Licence statuses." },
} as const;

const ARGUMENTS = [
  ...Object.keys(TEXT_FILTERS),
  ...Object.keys(CHOICE_FILTERS),
  "electricityMin",
  "electricityMax",
  "tags",
  "project",
  "sorts",
];

const argumentSpecs: Record<string, PropertySpec> = {
  ...Object.fromEntries(Object.entries(TEXT_FILTERS).map(([key, doc]) => [key, string(doc)])),
  ...Object.fromEntries(
    Object.entries(CHOICE_FILTERS).map(([key, filter]) => [
      key,
      list(ref(filter.enum), `${filter.doc} A device matches any of them.`),
    ]),
  ),
  electricityMin: integer("Lowest battery level."),
  electricityMax: integer("Highest battery level."),
  tags: list(element(string("A tag.")), "Tags (the platform's `tag` filter)."),
  project: string(
    "Project: only devices of exactly this project (the platform's search has no project filter; the provider " +
      "applies it to the listing).",
  ),
  sorts: list(ref("SearchSort"), "Sort orders of the search (default: the platform's order)."),
};

function checkArgs(args: Inputs): void {
  const checker = new ArgumentChecker(NAME, args, ARGUMENTS);
  for (const key of Object.keys(TEXT_FILTERS)) checker.string(key);
  for (const [key, filter] of Object.entries(CHOICE_FILTERS)) checker.stringList(key, filter.values);
  checker.integer("electricityMin", 0).integer("electricityMax", 0).stringList("tags").string("project");
  checker.sorts("sorts").done();
}

function filterOf(args: Inputs): DeviceFilter {
  const { tags, project: _project, ...rest } = args;
  const filter = Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined && v !== null));
  return { ...filter, ...(Array.isArray(tags) ? { tag: tags as string[] } : {}) } as DeviceFilter;
}

/** The getDevices function. */
export const getDevices: PackageFunction = {
  spec: {
    description: withExamples(
      "The devices of the application that match every filter given (Search Specific Devices, all pages: " +
        "⌈N/100⌉ requests), with `deviceIds` (serial number → deviceId) for a DeviceConfig.",
      GET_DEVICES_EXAMPLES,
    ),
    inputs: { properties: argumentSpecs },
    outputs: {
      properties: {
        devices: list(ref("DeviceInfo"), "The matching devices, in the search's order."),
        deviceIds: map(string("A deviceId."), "Serial number → deviceId of the matching devices."),
      },
      required: ["devices", "deviceIds"],
    },
  },
  types: {
    objects: {
      DeviceInfo: deviceInfoType,
      SearchSort: {
        type: "object",
        description: "A sort order of a search.",
        properties: {
          property: string("The field to sort by, e.g. `deviceId`."),
          direction: ref("SortDirection", "`asc` or `desc`."),
        },
        required: ["property", "direction"],
      },
    },
    enums: {
      SortDirection: {
        type: "string",
        description: "A sort direction.",
        enum: [
          { value: "asc", name: "Asc", description: "Ascending." },
          { value: "desc", name: "Desc", description: "Descending." },
        ],
      },
      ...Object.fromEntries(
        Object.values(CHOICE_FILTERS).map((filter) => [
          filter.enum,
          {
            type: "string" as const,
            description: `${filter.doc.slice(0, -1)} a search filters by.`,
            enum: filter.values.map((value) => ({ value, description: `\`${value}\`.` })),
          },
        ]),
      ),
    },
  },

  async invoke(args) {
    checkArgs(args);
    const project = typeof args.project === "string" ? args.project : undefined;
    return describeFailure(NAME, async () => {
      const client = await platformClient();
      const matching: DeviceDetails[] = [];
      for await (const device of client.listDevices(filterOf(args))) {
        if (project === undefined || projectOf(device) === project) matching.push(device);
      }
      const deviceIds: Record<string, string> = {};
      for (const device of matching) if (device.sn) deviceIds[device.sn] = device.deviceId;
      return { devices: matching.map(deviceInfoOf), deviceIds };
    });
  },
};
