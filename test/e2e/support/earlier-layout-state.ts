/**
 * A stack written by the provider's first layout (before the kinds' folders were split from the
 * front-ends), kept as a fixture: every kind through both front-ends, with the platform state the
 * emulator held when the stack was exported. State stores the dynamic resources' provider as
 * `require("pulumi-devplatform/providers/<kind>")`, so a later layout must keep those specifiers.
 *
 * The fixture is machine-neutral: the emulator's URL is the placeholder {@link URL_PLACEHOLDER}
 * and the emulator's tokens are dropped (the provider asks for new ones).
 */
import { readFileSync } from "node:fs";
import path from "node:path";

/** The project name the fixture's URNs carry. */
export const EARLIER_LAYOUT_PROJECT = "earlier-layout";

/** Where the exported stack and the emulator's state file are kept. */
export const FIXTURE_DIR = path.resolve(__dirname, "../fixtures/earlier-layout");
export const STACK_FILE = path.join(FIXTURE_DIR, "stack.json");
export const EMULATOR_STATE_FILE = path.join(FIXTURE_DIR, "emulator-state.json");

/** Stands for the emulator's base URL in the fixture. */
export const URL_PLACEHOLDER = "http://emulator.invalid";

/** Serial numbers of the fixture's devices and RPS records (model prefix `24`: writable TSL properties). */
export const EARLIER_LAYOUT_SNS = {
  dynamicDevice: "240000E1A001",
  dynamicFleet: ["240000E1A002", "240000E1A003"],
  dynamicRps: "AC0000E1A001",
  pluginDevice: "240000E1A101",
  pluginFleet: ["240000E1A102", "240000E1A103"],
  pluginRps: "AC0000E1A101",
} as const;

const sns = EARLIER_LAYOUT_SNS;

/** The program: every kind through the dynamic resources and through the plugin. */
export const EARLIER_LAYOUT_PROGRAM = `
import * as pulumi from "@pulumi/pulumi";
import { Device, DeviceConfig, DeviceFleet, RpsProfile } from "pulumi-devplatform";

// The dynamic resources.
const device = new Device("dynamic-device", { sn: "${sns.dynamicDevice}", name: "dynamic-device", tags: ["layout"] });
const fleet = new DeviceFleet("dynamic-fleet", {
  devices: [
    { sn: "${sns.dynamicFleet[0]}", name: "dynamic-fleet-1", project: "layout" },
    { sn: "${sns.dynamicFleet[1]}", name: "dynamic-fleet-2" },
  ],
});
new RpsProfile("dynamic-rps", { sn: "${sns.dynamicRps}", profileUrl: "https://rps.example.com/dynamic" });
new DeviceConfig("dynamic-config", { deviceIds: [device.deviceId], properties: { reportInterval: 900 } });

// The plugin's resources (\`pulumi.CustomResource\` until a generated SDK is used).
class Resource extends pulumi.CustomResource {
  constructor(kind: string, name: string, props: pulumi.Inputs) {
    super(\`devplatform:index:\${kind}\`, name, props);
  }
}
const pluginDevice = new Resource("Device", "plugin-device", {
  deviceId: undefined, sn: "${sns.pluginDevice}", name: "plugin-device", tags: ["layout"],
}) as unknown as { deviceId: pulumi.Output<string> };
const pluginFleet = new Resource("DeviceFleet", "plugin-fleet", {
  deviceIds: undefined,
  devices: [
    { sn: "${sns.pluginFleet[0]}", name: "plugin-fleet-1", project: "layout" },
    { sn: "${sns.pluginFleet[1]}", name: "plugin-fleet-2" },
  ],
}) as unknown as { deviceIds: pulumi.Output<Record<string, string>> };
new Resource("RpsProfile", "plugin-rps", { sn: "${sns.pluginRps}", profileUrl: "https://rps.example.com/plugin" });
new Resource("DeviceConfig", "plugin-config", { deviceIds: [pluginDevice.deviceId], properties: { reportInterval: 600 } });

export const fleetIds = fleet.deviceIds;
export const pluginFleetIds = pluginFleet.deviceIds;
`;

/** A recorded stack of the program above, and the platform state it was recorded with. */
export interface LayoutFixture {
  /** What wrote it. */
  readonly label: string;
  readonly stackFile: string;
  readonly emulatorStateFile: string;
}

/**
 * The recorded stacks: the first layout's, and ce02368's (the release before a dynamic fleet's
 * detailed diff reached the engine and `devplatform pr-summary` came; recorded by running this
 * program with that commit's `npm pack`ed package, the emulator's URL replaced and its tokens and
 * tasks dropped as above).
 */
export const LAYOUT_FIXTURES: readonly LayoutFixture[] = [
  { label: "the first layout", stackFile: STACK_FILE, emulatorStateFile: EMULATOR_STATE_FILE },
  {
    label: "ce02368",
    stackFile: path.resolve(FIXTURE_DIR, "../state-from-ce02368/stack.json"),
    emulatorStateFile: path.resolve(FIXTURE_DIR, "../state-from-ce02368/emulator-state.json"),
  },
];

/** The fixture's exported stack, with the emulator's URL put in. */
export function earlierLayoutStack(emulatorUrl: string, stackFile = STACK_FILE): string {
  return readFileSync(stackFile, "utf8").split(URL_PLACEHOLDER).join(emulatorUrl);
}
