/**
 * The policy pack shipped in the package, run the way users run it: `pulumi preview --policy-pack
 * node_modules/pulumi-devplatform/policy-pack/run-pack --policy-pack-config FILE`, on the CLI and
 * Node.js language host this project provisions (whose host cannot start a pack from its folder),
 * through both front-ends. A preview writes nothing on the platform, whatever the pack says.
 *
 * - the first preview remediates (a default project and a required tag on each fleet entry, the
 *   default maxRemovals on the fleet), reports an advisory range, and fails on the stack policy:
 *   an RpsProfile for a serial number the fleet declares. Through the plugin, this needs the
 *   fleet's serial numbers known at preview (without them the engine skipped the stack policy);
 * - the second preview fails on a mandatory resource policy (the RPS URL allow-list, the ranges).
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { EmulatorControl } from "../../emulator";
import { e2e } from "./support/e2e-context";
import { createProject } from "./support/e2e-project";
import { FRONT_ENDS, type FrontEnd } from "./support/front-ends";
import { serialNumbers } from "./support/fleet-programs";
import { writesOf } from "./support/platform-writes";

/** The launcher in the installed package: what users pass to `--policy-pack`. */
const runPack = () => path.join(e2e().nodeModules, "pulumi-devplatform", "policy-pack", "run-pack");

interface Declared {
  fleet: { sn: string; name: string; project?: string }[];
  rps: { sn: string; profileUrl: string };
  reportInterval: number;
}

function program({ fleet, rps, reportInterval }: Declared): string {
  return [
    `import * as devplatform from "pulumi-devplatform";`,
    `const fleet = new devplatform.DeviceFleet("site-a", { devices: ${JSON.stringify(fleet)} });`,
    `new devplatform.RpsProfile("rps-1", ${JSON.stringify(rps)});`,
    `new devplatform.DeviceConfig("intervals", {`,
    `  deviceIds: fleet.deviceIds.apply((ids: Record<string, string>) => Object.values(ids)),`,
    `  properties: { reportInterval: ${reportInterval} },`,
    `});`,
  ].join("\n");
}

const CONFIG = {
  "devplatform-rps-profile-url": {
    enforcementLevel: "mandatory",
    allowedPrefixes: ["https://rps.example.com/"],
  },
  "devplatform-project-and-tags": {
    enforcementLevel: "remediate",
    defaultProject: "plant-1",
    requiredTags: ["managed"],
  },
  "devplatform-fleet-max-removals": { enforcementLevel: "remediate", default: 25 },
  "devplatform-property-ranges": {
    enforcementLevel: "advisory",
    ranges: { reportInterval: { min: 300, max: 3600 } },
  },
  "devplatform-one-serial-one-resource": { enforcementLevel: "mandatory" },
};

describe.each(FRONT_ENDS)("the policy pack through the %s front-end", (front: FrontEnd) => {
  let control: EmulatorControl;

  beforeAll(() => {
    control = new EmulatorControl(e2e().emulatorUrl);
  });

  it("remediates, advises, and fails a preview on its mandatory policies, writing nothing", async () => {
    const [a, b, other] = serialNumbers(3) as [string, string, string];
    const declared: Declared = {
      fleet: [
        { sn: a, name: "a", project: "p" },
        { sn: b, name: "b" },
      ],
      // The RPS record names a device the fleet declares: one serial number, two resources.
      rps: { sn: b, profileUrl: "https://rps.example.com/profiles/1" },
      reportInterval: 60,
    };
    const project = await createProject({ name: `guardrails-${front}`, program: program(declared), front });
    const configFile = path.join(project.dir, "policy-config.json");
    writeFileSync(configFile, JSON.stringify(CONFIG));
    await control.resetCounters();

    const first = await project.preview({ policyPack: runPack(), policyPackConfig: configFile });
    expect(first.exitCode, first.output).not.toBe(0);
    // The stack policy, naming both resources (the fleet's serial numbers are known at preview).
    expect(first.output).toContain(
      `[mandatory]  devplatform-one-serial-one-resource  (${project.token("RpsProfile")}: rps-1)`,
    );
    expect(first.output).toContain(
      `serial number ${b} is declared by RpsProfile "rps-1" and by DeviceFleet "site-a"; declare each device in one resource`,
    );
    expect(first.output).toContain(
      `[advisory]  devplatform-property-ranges  (${project.token("DeviceConfig")}: intervals)`,
    );
    expect(first.output).toContain(
      `DeviceConfig "intervals": reportInterval is 60; the team's range is between 300 and 3600`,
    );
    // The remediations, in the inputs the engine goes on with.
    expect(first.output).toContain("[remediate]  devplatform-fleet-max-removals  (1 resource)");
    expect(first.output).toContain("[remediate]  devplatform-project-and-tags  (1 resource)");
    const fleetStep = first.steps.find((step) => step.type === project.token("DeviceFleet"));
    const inputs = fleetStep?.new?.inputs ?? {};
    expect(inputs.maxRemovals).toBe(25);
    expect(inputs[front === "plugin" ? "devices" : "entries"]).toEqual({
      [a]: { name: "a", project: "p", tags: ["managed"] },
      [b]: { name: "b", project: "plant-1", tags: ["managed"] },
    });

    // A rogue RPS server, and the ranges now mandatory, through the configuration alone.
    declared.rps = { sn: other, profileUrl: "https://rps.attacker.example/p" };
    project.setProgram(program(declared));
    const strict = {
      ...CONFIG,
      "devplatform-property-ranges": {
        ...CONFIG["devplatform-property-ranges"],
        enforcementLevel: "mandatory",
      },
    };
    writeFileSync(configFile, JSON.stringify(strict));
    const second = await project.preview({ policyPack: runPack(), policyPackConfig: configFile });
    expect(second.exitCode, second.output).not.toBe(0);
    expect(second.output).toContain(
      `[mandatory]  devplatform-rps-profile-url  (${project.token("RpsProfile")}: rps-1)`,
    );
    expect(second.output).toContain(
      'RpsProfile "rps-1": profileUrl https://rps.attacker.example/p is not on an allowed RPS server; it must start with https://rps.example.com/',
    );
    expect(second.output).toContain(
      `[mandatory]  devplatform-property-ranges  (${project.token("DeviceConfig")}: intervals)`,
    );

    expect(writesOf((await control.counters()).byRoute)).toEqual({});
  });
});
