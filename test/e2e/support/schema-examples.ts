/**
 * The examples in schema.json's descriptions (`provider/core/schema-examples.ts`), read back from
 * schema.json as Pulumi's SDK generators read them, and run: each language's e2e file runs every
 * example of its language through `pulumi up` on the stack its lifecycle left empty, one after the
 * other (each `up` replaces the previous example's resources), then destroys them. What each must
 * export is written here once for every language.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";
import { EmulatorControl } from "../../../emulator";
import type { ExampleLanguage } from "../../../provider/core/schema-examples";
import type { LifecycleHandle } from "./language-lifecycle";
import { stackOutputs } from "./language-lifecycle";
import { assertOk, type PulumiProject } from "./pulumi-project";
import { e2e } from "./e2e-context";

const repoRoot = path.resolve(__dirname, "../../..");

/** One example program of schema.json in one language. */
export interface SchemaExampleProgram {
  /** The resource's or function's token whose description carries it. */
  token: string;
  title: string;
  program: string;
}

interface DescribedSpec {
  description: string;
}

/** Every example of `language` in schema.json, resources first, in the schema's order. */
export function schemaExamples(language: ExampleLanguage): SchemaExampleProgram[] {
  const schema = JSON.parse(readFileSync(path.join(repoRoot, "schema.json"), "utf8")) as {
    resources: Record<string, DescribedSpec>;
    functions: Record<string, DescribedSpec>;
  };
  const described = [...Object.entries(schema.resources), ...Object.entries(schema.functions)];
  return described.flatMap(([token, spec]) => {
    const examples = spec.description.split("{{% example %}}").slice(1);
    return examples.map((example) => {
      const title = /^### (.+)$/m.exec(example)?.[1];
      const program = new RegExp("```" + language + "\\n([\\s\\S]*?)\\n```").exec(example)?.[1];
      if (title === undefined || program === undefined) {
        throw new Error(`an example of ${token} has no title or no ${language} program`);
      }
      return { token, title, program: program + "\n" };
    });
  });
}

const DEVICE_ID = expect.stringMatching(/^\d+$/);

/** What each example's program must export, by the token whose description carries it. */
const EXPECTED_OUTPUTS: Record<string, (outputs: Record<string, unknown>) => void> = {
  "devplatform:index:Device": (outputs) => expect(outputs).toEqual({ deviceId: DEVICE_ID }),
  "devplatform:index:DeviceFleet": (outputs) =>
    expect(outputs).toEqual({ deviceIds: { "240000F10002": DEVICE_ID, "240000F10003": DEVICE_ID } }),
  "devplatform:index:RpsProfile": (outputs) =>
    expect(outputs).toEqual({ profileUrl: "https://rps.example.com/profiles/controller-4" }),
  "devplatform:index:RpsFleet": (outputs) =>
    expect(outputs).toEqual({
      profileUrls: {
        AC0000F1000A: "https://rps.example.com/profiles/controller",
        AC0000F1000B: "https://rps.example.com/profiles/controller",
      },
    }),
  "devplatform:index:DeviceConfig": (outputs) =>
    expect(outputs).toEqual({ properties: { reportInterval: 900, alarmThreshold: { high: 28, low: 5 } } }),
  "devplatform:index:getDevice": (outputs) =>
    expect(outputs).toEqual({ model: "EnvSense S24", firmwareVersion: "1.4.7" }),
  "devplatform:index:getDevices": (outputs) =>
    expect(outputs).toEqual({ deviceIds: { "240000F10007": DEVICE_ID } }),
  "devplatform:index:getThingModel": (outputs) => {
    expect(outputs["modelVersion"]).toMatch(/^\d+\.\d+\.\d+$/);
    // YAML cannot filter a list: its example exports the model's properties whole.
    const writable =
      outputs["writable"] ??
      (outputs["properties"] as { id: string; accessMode?: string }[])
        .filter((p) => p.accessMode === "W" || p.accessMode === "RW")
        .map((p) => p.id);
    expect(writable).toEqual(expect.arrayContaining(["reportInterval", "alarmThreshold", "label"]));
    expect(writable).not.toContain("temperature"); // read-only
  },
  "devplatform:index:getRpsProfiles": (outputs) =>
    expect(outputs).toEqual({ profileUrls: { AC0000F10009: "https://rps.example.com/profiles/gate-9" } }),
};

/** The serial numbers the examples declare: none may be left on the platform. */
const EXAMPLE_SERIALS = [
  "240000F10001",
  "240000F10002",
  "240000F10003",
  "AC0000F10004",
  "240000F10005",
  "240000F10006",
  "240000F10007",
  "240000F10008",
  "AC0000F10009",
];

/**
 * Registers, after the lifecycle's steps of the same file, one test per example of `language`
 * (written into the project by `write`, then `pulumi up`), and one that destroys their resources.
 */
export function exampleSteps(
  handle: LifecycleHandle,
  language: ExampleLanguage,
  write: (project: PulumiProject, program: string) => void,
): void {
  const examples = schemaExamples(language);

  it(`has an example in ${language} for every resource and function of the schema`, () => {
    expect(examples.map((e) => e.token).sort()).toEqual(Object.keys(EXPECTED_OUTPUTS).sort());
  });

  for (const example of examples) {
    it(`runs the ${language} example of ${example.token} ("${example.title}") through \`pulumi up\``, async () => {
      const project = handle.project();
      write(project, example.program);
      assertOk(await project.up());
      const check = EXPECTED_OUTPUTS[example.token];
      if (!check) throw new Error(`no expected outputs for ${example.token}`);
      check(await stackOutputs(project));
    });
  }

  it(`destroys what the ${language} examples made`, async () => {
    assertOk(await handle.project().destroy());
    const { devices, rpsRecords } = await new EmulatorControl(e2e().emulatorUrl).state();
    const left = [...devices, ...rpsRecords]
      .map((o) => o.sn.toUpperCase())
      .filter((sn) => EXAMPLE_SERIALS.includes(sn));
    expect(left).toEqual([]);
  });
}
