/**
 * Bad input fails at preview, one message per property naming the property and the rule, before
 * any request reaches the platform.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { EmulatorControl } from "../../emulator";
import { serialNumbers } from "./support/fleet-programs";
import { createProject } from "./support/e2e-project";
import type { PulumiProject } from "./support/pulumi-project";
import { e2e } from "./support/e2e-context";

const [sn] = serialNumbers(1) as [string];
const tooManyTags = Array.from({ length: 21 }, (_, i) => `t${i}`);

/**
 * Each case: resource constructor source, and the messages its preview must show. The engine stops
 * at the first resource whose check fails, so each case holds one bad resource.
 */
const CASES: { title: string; resource: string; messages: RegExp[] }[] = [
  {
    title: "a Device with a malformed serial number, an empty name and bad tags",
    resource: `new devplatform.Device("bad-device", { sn: "12-34", name: "  ", tags: ${JSON.stringify(tooManyTags)} })`,
    messages: [
      /Device\.sn must be 12 to 16 hex digits, got "12-34"/,
      /Device\.name must not be empty/,
      /Device\.tags may hold at most 19 tags, got 21: the platform allows 20, and one of them is the owner marker/,
    ],
  },
  {
    title: "a Device with duplicate and empty tags",
    resource: `new devplatform.Device("bad-tags", { sn: "${sn}", name: "ok", tags: ["a", "a", ""] })`,
    messages: [/Device\.tags\[1\] repeats the tag "a"/, /Device\.tags\[2\] must not be empty/],
  },
  {
    title: "a Device with wrong types and a misspelt property",
    resource: `new devplatform.Device("bad-types", { sn: "${sn}", name: 42, nmae: "typo", takeOverRps: "yes", description: "" } as any)`,
    messages: [
      /Device\.name must be a string, got the number 42/,
      /Device\.nmae is not a property of Device/,
      /Device\.takeOverRps must be true or false, got "yes"/,
      /Device\.description must not be empty/,
    ],
  },
  {
    title: "a Device without a serial number or a name",
    resource: `new devplatform.Device("missing", {} as any)`,
    messages: [/Device\.sn is required/, /Device\.name is required/],
  },
  {
    title: "an RpsProfile with a plain-http profile URL",
    resource: `new devplatform.RpsProfile("plain-http", { sn: "${sn}", profileUrl: "http://rps.example.com/p" })`,
    messages: [/RpsProfile\.profileUrl must be an https URL, got "http:\/\/rps\.example\.com\/p"/],
  },
  {
    title: "an RpsProfile with a relative profile URL and a short serial number",
    resource: `new devplatform.RpsProfile("relative", { sn: "ABC", profileUrl: "/profiles/p" })`,
    messages: [
      /RpsProfile\.profileUrl must be an absolute URL, got "\/profiles\/p"/,
      /RpsProfile\.sn must be 12 to 16 hex digits, got "ABC"/,
    ],
  },
];

describe("bad input at preview", () => {
  let control: EmulatorControl;
  let project: PulumiProject;

  beforeAll(async () => {
    control = new EmulatorControl(e2e().emulatorUrl);
    project = await createProject({ name: "bad-input", program: "export {};\n" });
  });

  it.each(CASES)(
    "rejects $title, naming each property, with zero platform requests",
    async ({ resource, messages }) => {
      project.setProgram(`import * as devplatform from "pulumi-devplatform";\n${resource};\n`);
      await control.resetCounters();
      const preview = await project.preview();
      expect(preview.exitCode).not.toBe(0);
      for (const message of messages) expect(preview.output).toMatch(message);
      expect(preview.output).not.toMatch(/\n\s+at /); // no stack trace
      expect((await control.counters()).total).toBe(0);
    },
  );
});
