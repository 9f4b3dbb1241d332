/**
 * The programs of test/e2e/owner-tag-across-stacks.test.ts: a stack's Device `x` (or none) and its
 * fleet `site`, with the take-over a step declares.
 */

/** What a stack's program declares: the Device `x` (or not), and the fleet `site`'s serial numbers. */
export interface Declared {
  readonly device?: string;
  readonly takeOverDevice?: boolean;
  readonly fleet: readonly string[];
  readonly fleetTakeOver?: readonly string[];
  readonly fleetTakeOverFrom?: readonly string[];
  readonly fleetTags?: readonly string[];
}

/** The program's index.ts, on the dynamic resources (`programFor` moves it to the plugin). */
export function ownerProgram(declared: Declared): string {
  const tags = declared.fleetTags ? { tags: declared.fleetTags } : {};
  const devices = declared.fleet.map((sn, i) => ({ sn, name: `site-${i}`, ...tags }));
  const takeOver =
    (declared.fleetTakeOver ? `, takeOver: ${JSON.stringify(declared.fleetTakeOver)}` : "") +
    (declared.fleetTakeOverFrom ? `, takeOverFrom: ${JSON.stringify(declared.fleetTakeOverFrom)}` : "");
  const device =
    declared.device === undefined
      ? ""
      : `new devplatform.Device("x", { sn: ${JSON.stringify(declared.device)}, name: "x", tags: ["site"]` +
        `${declared.takeOverDevice ? ", takeOver: true" : ""} });`;
  return [
    `import * as devplatform from "pulumi-devplatform";`,
    device,
    `new devplatform.DeviceFleet("site", { devices: ${JSON.stringify(devices)}${takeOver} });`,
    "",
  ].join("\n");
}
