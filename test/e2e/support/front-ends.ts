/**
 * One program, either door: the e2e programs are written against the dynamic resources
 * (`import … from "pulumi-devplatform"`); run through the plugin, the same program imports a
 * module of the project's own that declares each kind as `devplatform:index:<Kind>` with the same
 * constructor, as a TypeScript user without the generated SDK would. So every Reliability
 * scenario runs unchanged through both front-ends.
 */
import path from "node:path";

/** The two front-ends. */
export type FrontEnd = "dynamic" | "plugin";
export const FRONT_ENDS: readonly FrontEnd[] = ["dynamic", "plugin"];

/** The resource kinds. */
export type Kind = "Device" | "DeviceFleet" | "RpsProfile" | "RpsFleet" | "DeviceConfig";

/** A kind's type token in a front-end (as state records it). */
export function tokenOf(front: FrontEnd, kind: Kind): string {
  return front === "plugin" ? `devplatform:index:${kind}` : `pulumi-nodejs:dynamic/devplatform:${kind}`;
}

/** The module a plugin-door program imports instead of "pulumi-devplatform". */
export const PLUGIN_MODULE_FILE = "devplatform-plugin.ts";

/**
 * The plugin's resources with the dynamic classes' constructors: each output is declared as an
 * input left undefined, so that the program reads it as it reads the dynamic resource's.
 */
export const PLUGIN_MODULE = `import * as pulumi from "@pulumi/pulumi";
const outputs: Record<string, string[]> = {
  Device: ["deviceId", "devEUI", "imei", "model", "deviceType", "hardwareVersion", "firmwareVersion",
    "connectStatus", "licenseStatus", "rpsStatus", "autopStatus", "electricity", "applicationId",
    "applicationName", "lastUpdateTime"],
  DeviceFleet: ["deviceIds"],
  RpsProfile: [],
  RpsFleet: ["profileUrls"],
  DeviceConfig: ["method", "pending", "taskIds"],
};
function kind(name: string): any {
  return class extends pulumi.CustomResource {
    constructor(resourceName: string, args: pulumi.Inputs, opts?: pulumi.CustomResourceOptions) {
      const declared = Object.fromEntries(outputs[name].map((output) => [output, undefined]));
      super("devplatform:index:" + name, resourceName, { ...declared, ...args }, opts);
    }
  };
}
export const Device = kind("Device");
export const DeviceFleet = kind("DeviceFleet");
export const RpsProfile = kind("RpsProfile");
export const RpsFleet = kind("RpsFleet");
export const DeviceConfig = kind("DeviceConfig");
`;

/** The program as the front-end runs it: the plugin's imports the project's module. */
export function programFor(front: FrontEnd, program: string): string {
  return front === "plugin"
    ? program.replace(/(["'])pulumi-devplatform\1/g, `"./${PLUGIN_MODULE_FILE.replace(/\.ts$/, "")}"`)
    : program;
}

/** The directory of the installed package's plugin launcher (what users name in Pulumi.yaml). */
export function installedPluginDir(nodeModules: string): string {
  return path.join(nodeModules, "pulumi-devplatform", "bin");
}
