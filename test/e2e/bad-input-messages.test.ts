/**
 * The messages of bad input where it sits inside a property (a STRUCT member of a configuration, a
 * list element, a YAML number where a string belongs), on the real CLI through both front-ends: a
 * dynamic TypeScript program and a Pulumi YAML program on the plugin. Each names the path and the
 * value it got, never the engine's `value {<nil>}`; nothing is written.
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { EmulatorControl } from "../../emulator";
import { serialNumbers } from "./support/fleet-programs";
import { createProject } from "./support/e2e-project";
import { createPluginProject, pluginDir, pluginProjectYaml } from "./support/plugin-toolchain";
import { writesOf } from "./support/platform-writes";
import type { PulumiProject } from "./support/pulumi-project";
import { e2e } from "./support/e2e-context";

const [sn] = serialNumbers(1) as [string];

/** A case: the program's resource (dynamic TypeScript, or the YAML `resources:` section) and its messages. */
interface Case {
  title: string;
  program: (deviceId: string) => string;
  messages: (deviceId: string) => RegExp[];
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
/** `… resource 'NAME' has a problem: REASON`: the failure on no property, so no `value {<nil>}`. */
const problem = (name: string, reason: string) =>
  new RegExp(`resource '${name}' has a problem: ${escape(reason)}`);
const octal = "an unquoted 0123456 arrives as 42798";

const DYNAMIC: Case[] = [
  {
    title: "a STRUCT member of the wrong type, beside a property left null",
    program: (id) =>
      `new devplatform.DeviceConfig("c", { deviceIds: ["${id}"], ` +
      `properties: { ledEnabled: null, alarmThreshold: { high: "hot", low: 0 } } } as any)`,
    messages: (id) => [
      problem("c", "DeviceConfig.properties.ledEnabled must have a value; to stop managing it, remove it"),
      problem(
        "c",
        `DeviceConfig.properties.alarmThreshold.high must be a number (TSL dataType FLOAT of device ${id}), got "hot"`,
      ),
    ],
  },
  {
    title: "a tag that is a number",
    program: () => `new devplatform.Device("d", { sn: "${sn}", name: "ok", tags: ["a", 1] } as any)`,
    messages: () => [problem("d", "Device.tags[1] must be a string, got the number 1 (in YAML, quote it")],
  },
];

const YAML: Case[] = [
  {
    title: "a STRUCT member of the wrong type",
    program: (id) =>
      `  c:\n    type: devplatform:DeviceConfig\n    properties:\n      deviceIds: ["${id}"]\n` +
      `      properties:\n        alarmThreshold:\n          high: hot\n          low: 0\n`,
    messages: (id) => [
      problem(
        "c",
        `DeviceConfig.properties.alarmThreshold.high must be a number (TSL dataType FLOAT of device ${id}), got "hot"`,
      ),
    ],
  },
  {
    title: "an unquoted serial number, a null tag and a number tag",
    program: () =>
      `  d:\n    type: devplatform:Device\n    properties:\n      sn: 000000123456\n      name: ok\n      tags: [~, 1]\n`,
    messages: () => [
      new RegExp(
        escape(`property sn value {42798} has a problem: Device.sn must be a string, got the number 42798`),
      ),
      new RegExp(escape(octal)),
      problem(
        "d",
        "Device.tags[0] must be a string, got null (in YAML, a key or list item with nothing after it",
      ),
      problem("d", "Device.tags[1] must be a string, got the number 1"),
    ],
  },
  {
    title: "an unquoted deviceId",
    program: () =>
      `  c:\n    type: devplatform:DeviceConfig\n    properties:\n      deviceIds: [000000123456]\n` +
      `      properties: { reportInterval: 600 }\n`,
    messages: () => [
      problem("c", `DeviceConfig.deviceIds[0] must be a deviceId, a string of digits, got the number 42798`),
      new RegExp(escape(octal)),
    ],
  },
  {
    // The engine stops at the first resource whose check fails: one resource per case.
    title: "a fleet's unquoted serial number",
    program: () =>
      `  f:\n    type: devplatform:DeviceFleet\n    properties:\n      devices:\n        - sn: 000000123456\n          name: x\n`,
    messages: () => [
      problem(
        "f",
        `DeviceFleet.devices[0].sn must be a string, got the number 42798 (in YAML, quote it: sn: "…"`,
      ),
      new RegExp(escape(octal)),
    ],
  },
];

describe("messages of bad input inside a property", () => {
  let control: EmulatorControl;
  let deviceId: string;

  beforeAll(async () => {
    control = new EmulatorControl(e2e().emulatorUrl);
    deviceId = (await control.seedDevice({ sn, name: "seeded" })).deviceId;
  });

  async function expectMessages(project: PulumiProject, { messages }: Case): Promise<void> {
    await control.resetCounters();
    const preview = await project.preview();
    expect(preview.exitCode).not.toBe(0);
    for (const message of messages(deviceId)) expect(preview.output).toMatch(message);
    expect(preview.output).not.toContain("{<nil>} has a problem");
    expect(writesOf((await control.counters()).byRoute)).toEqual({});
  }

  it("in a dynamic TypeScript program", async () => {
    const project = await createProject({ name: "bad-messages", program: "export {};\n" });
    for (const c of DYNAMIC) {
      project.setProgram(`import * as devplatform from "pulumi-devplatform";\n${c.program(deviceId)};\n`);
      await expectMessages(project, c);
    }
  });

  it("in a YAML program on the plugin", async () => {
    const name = "bad-messages-yaml";
    const project = await createPluginProject({ name, runtime: "yaml", files: {} }, e2e());
    const header = pluginProjectYaml(name, "yaml", pluginDir(e2e().nodeModules));
    for (const c of YAML) {
      writeFileSync(path.join(project.dir, "Pulumi.yaml"), `${header}resources:\n${c.program(deviceId)}`);
      await expectMessages(project, c);
    }
  });
});
