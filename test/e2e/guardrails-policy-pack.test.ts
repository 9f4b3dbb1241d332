/**
 * The policy pack shipped in the package, run the way users run it: `pulumi preview --policy-pack
 * node_modules/pulumi-devplatform/policy-pack/run-pack --policy-pack-config FILE`, on the CLI and
 * Node.js language host this project provisions (whose host cannot start a pack from its folder),
 * through both front-ends.
 *
 * - the first preview runs the Guardrails guide's example configuration as the guide writes it (read
 *   from docs/guides/guardrails.md) on devices that carry tags and a fleet whose devices are
 *   computed: it remediates (a default project and the required tag on each entry and Device, the
 *   default maxRemovals on both fleets) and passes. @pulumi/policy 1.21's remediation-path proxies
 *   failed it on every tagged device, and the computed fleet failed "has no maxRemovals";
 * - the second fails on the mandatory policies, each given a spelling that once got around it
 *   (a STRUCT child by its full id, a zero-width space for a project, a `..` in a profile URL),
 *   and on the stack policy: an RpsProfile for a serial number the fleet declares. Through the
 *   plugin, this needs the fleet's serial numbers known at preview;
 * - previews write nothing. Then an `up` with the pack (as a deploy job runs it, `--skip-preview`)
 *   checks a profile URL known only at apply: the policy the preview could not run refuses it, and
 *   the RPS record is not written.
 */
import { readFileSync, writeFileSync } from "node:fs";
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

/** The guide's example configuration, as the guide writes it. */
function guideConfig(): Record<string, Record<string, unknown>> {
  const guide = readFileSync(path.join(__dirname, "../../docs/guides/guardrails.md"), "utf8");
  const block = /An example configuration:\n\n```json\n([\s\S]*?)\n```/.exec(guide)?.[1];
  if (block === undefined) throw new Error("docs/guides/guardrails.md has no example configuration block");
  return JSON.parse(block) as Record<string, Record<string, unknown>>;
}

interface Declared {
  fleet: { sn: string; name: string; project?: string; tags?: string[] }[];
  /** Declared by a second fleet, computed from the first's outputs (unknown at preview). */
  computed: { sn: string; name: string; project?: string; tags?: string[] }[];
  /** A Device, and a DeviceConfig on the fleet's devices, where given. */
  device?: { sn: string; name: string; tags: string[] };
  rps: { sn: string; profileUrl: string };
  /** The RPS profile URL known only at apply, where given. */
  computedUrl?: string;
  properties?: Record<string, unknown>;
}

function program(d: Declared): string {
  const url =
    d.computedUrl === undefined
      ? JSON.stringify(d.rps.profileUrl)
      : `fleet.deviceIds.apply(() => ${JSON.stringify(d.computedUrl)})`;
  return [
    `import * as devplatform from "pulumi-devplatform";`,
    `const fleet = new devplatform.DeviceFleet("site-a", { devices: ${JSON.stringify(d.fleet)} });`,
    d.computed.length === 0
      ? ""
      : `new devplatform.DeviceFleet("site-c", { devices: fleet.deviceIds.apply(() => (${JSON.stringify(d.computed)})) });`,
    d.device === undefined ? "" : `new devplatform.Device("gw", ${JSON.stringify(d.device)});`,
    `new devplatform.RpsProfile("rps-1", { sn: ${JSON.stringify(d.rps.sn)}, profileUrl: ${url} });`,
    d.properties === undefined
      ? ""
      : [
          `new devplatform.DeviceConfig("intervals", {`,
          `  deviceIds: fleet.deviceIds.apply((ids: Record<string, string>) => Object.values(ids)),`,
          `  properties: ${JSON.stringify(d.properties)},`,
          `});`,
        ].join("\n"),
  ].join("\n");
}

/** Stricter than the guide: RPS profiles under /profiles/ only, a STRUCT child's range, one project. */
function strictConfig(): Record<string, Record<string, unknown>> {
  const guide = guideConfig();
  return {
    ...guide,
    "devplatform-rps-profile-url": {
      enforcementLevel: "mandatory",
      allowedPrefixes: ["https://rps.example.com/profiles/"],
    },
    "devplatform-project-and-tags": { enforcementLevel: "mandatory", allowedProjects: ["plant-1", "p"] },
    "devplatform-property-ranges": {
      enforcementLevel: "mandatory",
      ranges: { reportInterval: { min: 300, max: 3600 }, "alarmThreshold.high": { max: 40 } },
    },
  };
}

describe.each(FRONT_ENDS)("the policy pack through the %s front-end", (front: FrontEnd) => {
  let control: EmulatorControl;

  beforeAll(() => {
    control = new EmulatorControl(e2e().emulatorUrl);
  });

  it("runs the guide's example, refuses every spelling around a rule, and checks at up what only apply knows", async () => {
    const [a, b, c, gw, other] = serialNumbers(5) as [string, string, string, string, string];
    const declared: Declared = {
      fleet: [
        { sn: a, name: "a", project: "p", tags: ["managed", "x"] },
        { sn: b, name: "b", tags: ["x"] },
      ],
      computed: [{ sn: c, name: "c", tags: ["y"] }],
      device: { sn: gw, name: "gw", tags: ["managed"] },
      rps: { sn: other, profileUrl: "https://rps.example.com/profiles/1" },
      properties: { reportInterval: 600 },
    };
    const project = await createProject({ name: `guardrails-${front}`, program: program(declared), front });
    const configFile = path.join(project.dir, "policy-config.json");
    writeFileSync(configFile, JSON.stringify(guideConfig()));
    await control.resetCounters();

    const first = await project.preview({ policyPack: runPack(), policyPackConfig: configFile });
    expect(first.exitCode, first.output).toBe(0);
    expect(first.output).not.toContain("failed to run remediation");
    expect(first.output).toContain("[remediate]  devplatform-fleet-max-removals  (2 resources)");
    expect(first.output).toContain("[remediate]  devplatform-project-and-tags  (2 resources)");
    const inputsOf = (type: string, name: string) =>
      first.steps.find(
        (step) => step.type === project.token(type as "Device") && step.urn.endsWith(`::${name}`),
      )?.new?.inputs ?? {};
    const fleetInputs = inputsOf("DeviceFleet", "site-a");
    expect(fleetInputs.maxRemovals).toBe(25);
    expect(fleetInputs[front === "plugin" ? "devices" : "entries"]).toEqual({
      [a]: { name: "a", project: "p", tags: ["managed", "x"] },
      [b]: { name: "b", project: "plant-1", tags: ["x", "managed"] },
    });
    expect(inputsOf("DeviceFleet", "site-c").maxRemovals).toBe(25);
    expect(inputsOf("Device", "gw")).toMatchObject({ sn: gw, project: "plant-1", tags: ["managed"] });

    // Each way around a rule that once passed, and one serial number in two resources.
    declared.fleet[1] = { sn: b, name: "b", project: "\u200b", tags: ["managed"] };
    declared.computed = [];
    declared.rps = { sn: b, profileUrl: "https://rps.example.com/profiles/../admin/x" };
    declared.properties = { reportInterval: 60, alarmThreshold: { "alarmThreshold.high": 100 } };
    project.setProgram(program(declared));
    writeFileSync(configFile, JSON.stringify(strictConfig()));
    const second = await project.preview({ policyPack: runPack(), policyPackConfig: configFile });
    expect(second.exitCode, second.output).not.toBe(0);
    for (const expected of [
      `[mandatory]  devplatform-one-serial-one-resource  (${project.token("RpsProfile")}: rps-1)`,
      `serial number ${b} is declared by RpsProfile "rps-1" and by DeviceFleet "site-a"; declare each device in one resource`,
      `[mandatory]  devplatform-rps-profile-url  (${project.token("RpsProfile")}: rps-1)`,
      'RpsProfile "rps-1": profileUrl https://rps.example.com/profiles/../admin/x is not on an allowed RPS server',
      `DeviceFleet "site-a": 1 device with project "\u200b" contains an invisible or control character (U+200B) (${b})`,
      `[mandatory]  devplatform-property-ranges  (${project.token("DeviceConfig")}: intervals)`,
      `DeviceConfig "intervals": reportInterval is 60; the team's range is between 300 and 3600`,
      `DeviceConfig "intervals": alarmThreshold.high is 100; the team's range is at most 40`,
    ])
      expect(second.output).toContain(expected);
    expect(writesOf((await control.counters()).byRoute)).toEqual({});

    // A profile URL known only at apply: the preview cannot check it; the up with the pack does.
    declared.fleet = [{ sn: a, name: "a", project: "p", tags: ["managed"] }];
    declared.rps = { sn: other, profileUrl: "" };
    declared.computedUrl = "https://rps.attacker.example/p";
    delete declared.device;
    delete declared.properties;
    project.setProgram(program(declared));
    writeFileSync(configFile, JSON.stringify(guideConfig()));
    const up = await project.up({ policyPack: runPack(), policyPackConfig: configFile });
    expect(up.exitCode, up.output).not.toBe(0);
    expect(up.output).toContain(
      `[mandatory]  devplatform-rps-profile-url  (${project.token("RpsProfile")}: rps-1)`,
    );
    expect(up.output).toContain("profileUrl https://rps.attacker.example/p is not on an allowed RPS server");
    const rpsWrites = Object.keys(writesOf((await control.counters()).byRoute)).filter((route) =>
      /rps/i.test(route),
    );
    expect(rpsWrites).toEqual([]);
    await project.destroy();
  });
});
