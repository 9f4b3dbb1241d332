import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DEVICE_FIELDS } from "../../../provider/device/desired";
import { PLUGIN_DOWNLOAD_URL, pluginSchema } from "../../../provider/plugin/schema";

const root = join(__dirname, "..", "..", "..");
const version = (JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version: string }).version;

interface Property {
  type?: string;
  $ref?: string;
  oneOf?: Property[];
  items?: Property;
  additionalProperties?: Property;
  description?: string;
  secret?: boolean;
}
interface Resource {
  description: string;
  inputProperties: Record<string, Property>;
  requiredInputs: string[];
  properties: Record<string, Property>;
  required: string[];
}
interface Schema {
  name: string;
  version: string;
  config: { variables: Record<string, Property> };
  provider: { inputProperties: Record<string, Property> };
  resources: Record<string, Resource>;
  functions: Record<
    string,
    {
      description: string;
      inputs: { properties: Record<string, Property>; required?: string[] };
      outputs: { properties: Record<string, Property>; required: string[] };
    }
  >;
  types: Record<
    string,
    { type: string; properties?: Record<string, Property>; required?: string[]; enum?: { value: string }[] }
  >;
  language: {
    nodejs: { packageName: string; dependencies: Record<string, string> };
    python: { packageName: string };
  };
}

const schema = pluginSchema(version) as unknown as Schema;
const TOKEN = /^devplatform:index:[A-Za-z][A-Za-z0-9]*$/;

/** Every problem of one property: a type (or a reference that resolves), and a description at the top. */
function propertyProblems(where: string, property: Property, topLevel: boolean): string[] {
  const problems: string[] = [];
  if (topLevel && !property.description) problems.push(`${where} has no description`);
  const kinds = [property.type, property.$ref, property.oneOf].filter((k) => k !== undefined);
  if (kinds.length !== 1) problems.push(`${where} must have exactly one of type, $ref, oneOf`);
  if (property.$ref !== undefined && property.$ref !== "pulumi.json#/Any") {
    const name = property.$ref.replace(/^#\/types\//, "");
    if (!property.$ref.startsWith("#/types/") || !schema.types[name])
      problems.push(`${where} refers to ${property.$ref}, not defined`);
  }
  if (property.type === "array") {
    if (!property.items) problems.push(`${where} is an array without items`);
    else problems.push(...propertyProblems(`${where}[]`, property.items, false));
  }
  if (property.additionalProperties)
    problems.push(...propertyProblems(`${where}{}`, property.additionalProperties, false));
  for (const [index, choice] of (property.oneOf ?? []).entries())
    problems.push(...propertyProblems(`${where}|${index}`, choice, false));
  return problems;
}

function propertiesProblems(
  where: string,
  properties: Record<string, Property>,
  required: readonly string[] = [],
): string[] {
  return [
    ...Object.entries(properties).flatMap(([name, property]) =>
      propertyProblems(`${where}.${name}`, property, true),
    ),
    ...required
      .filter((name) => !Object.hasOwn(properties, name))
      .map((name) => `${where} requires ${name}, not a property`),
  ];
}

describe("the plugin's package schema", () => {
  it("is what schema.json at the repository root holds (run `npm run schema` after a change)", () => {
    const written: unknown = JSON.parse(readFileSync(join(root, "schema.json"), "utf8"));
    expect(written).toEqual(pluginSchema(version));
  });

  it("names the package, every resource and function by its fixed token, and the SDKs' packages", () => {
    expect(schema.name).toBe("devplatform");
    expect(schema.version).toBe(version);
    expect(Object.keys(schema.resources).sort()).toEqual(
      ["Device", "DeviceConfig", "DeviceFleet", "RpsFleet", "RpsProfile"].map(
        (k) => `devplatform:index:${k}`,
      ),
    );
    expect(Object.keys(schema.functions).sort()).toEqual(
      ["getDevice", "getDevices", "getRpsProfiles", "getThingModel"].map((k) => `devplatform:index:${k}`),
    );
    for (const name of Object.keys(schema.types)) expect(name).toMatch(TOKEN);
    expect(schema.language.nodejs.packageName).toBe("@devplatform/pulumi");
    expect(schema.language.nodejs.dependencies["@pulumi/pulumi"]).toBe("^3.259.0");
    expect(schema.language.python.packageName).toBe("pulumi_devplatform");
  });

  it("names where the engine fetches the plugin, and every generated SDK's plugin metadata names the same, at the same version", () => {
    expect(pluginSchema(version).pluginDownloadURL).toBe(PLUGIN_DOWNLOAD_URL);
    expect(PLUGIN_DOWNLOAD_URL).toMatch(/^github:\/\/api\.github\.com\/[^/]+\/pulumi-devplatform$/);
    const plugin = { resource: true, name: "devplatform", version, server: PLUGIN_DOWNLOAD_URL };
    const nodejs = JSON.parse(readFileSync(join(root, "plugin-sdks/nodejs/package.json"), "utf8")) as {
      version: string;
      pulumi: unknown;
    };
    expect(nodejs).toMatchObject({ version, pulumi: plugin });
    const python = join(root, "plugin-sdks/python/pulumi_devplatform/pulumi-plugin.json");
    expect(JSON.parse(readFileSync(python, "utf8"))).toEqual(plugin);
    expect(readFileSync(join(root, "plugin-sdks/python/pyproject.toml"), "utf8")).toContain(
      `version = "${version}"`,
    );
  });

  it("has the provider configuration, the client secret secret, in config and provider inputs alike", () => {
    const keys = [
      "apiVersion",
      "baseUrl",
      "clientId",
      "clientSecret",
      "countReleases",
      "maxRemovals",
      "maxRetries",
      "ownerTag",
      "rateLimitWait",
    ];
    expect(Object.keys(schema.config.variables).sort()).toEqual(keys);
    expect(schema.provider.inputProperties).toEqual(schema.config.variables);
    expect(schema.config.variables.clientSecret?.secret).toBe(true);
    expect(schema.config.variables.maxRetries?.type).toBe("integer");
    expect(schema.config.variables.maxRemovals?.type).toBe("integer");
    expect(schema.config.variables.countReleases?.type).toBe("boolean");
    expect(propertiesProblems("config", schema.config.variables)).toEqual([]);
  });

  it("types and describes every input and output of every resource, and its required ones exist", () => {
    const problems = Object.entries(schema.resources).flatMap(([name, resource]) => [
      ...(resource.description ? [] : [`${name} has no description`]),
      ...propertiesProblems(`${name} input`, resource.inputProperties, resource.requiredInputs),
      ...propertiesProblems(`${name} output`, resource.properties, resource.required),
    ]);
    expect(problems).toEqual([]);
  });

  it("types and describes every argument and result of every function", () => {
    const problems = Object.entries(schema.functions).flatMap(([name, fn]) => [
      ...(fn.description ? [] : [`${name} has no description`]),
      ...propertiesProblems(`${name} argument`, fn.inputs.properties, fn.inputs.required),
      ...propertiesProblems(`${name} result`, fn.outputs.properties, fn.outputs.required),
    ]);
    expect(problems).toEqual([]);
  });

  it("defines every object type with typed properties and every enum with its closed values", () => {
    const problems = Object.entries(schema.types).flatMap(([name, type]) =>
      type.enum
        ? type.type === "string" && type.enum.length > 0
          ? []
          : [`${name} is an enum without string values`]
        : propertiesProblems(name, type.properties ?? {}, type.required),
    );
    expect(problems).toEqual([]);
    expect(schema.types["devplatform:index:OnRemove"]?.enum?.map((e) => e.value)).toEqual([
      "delete",
      "release",
    ]);
  });

  it("takes a fleet's devices as a list of entries and answers them as a map by serial number", () => {
    const fleet = schema.resources["devplatform:index:DeviceFleet"] as Resource;
    expect(fleet.inputProperties.devices).toMatchObject({
      type: "array",
      items: { $ref: "#/types/devplatform:index:DeviceFleetDevice" },
    });
    expect(fleet.properties.devices).toMatchObject({
      type: "object",
      additionalProperties: { $ref: "#/types/devplatform:index:FleetDeviceInfo" },
    });
    // One source of truth: a fleet entry's fields are a Device's declared fields, descriptions and all.
    const device = schema.resources["devplatform:index:Device"] as Resource;
    const declared = Object.fromEntries(DEVICE_FIELDS.map((key) => [key, device.inputProperties[key]]));
    expect(schema.types["devplatform:index:DeviceFleetDevice"]?.properties).toEqual(declared);
  });

  it("declares the owner tag as an output of every resource whose state records it", () => {
    // Device and DeviceFleet write it on their devices; DeviceConfig records it for resetOnDelete.
    for (const kind of ["Device", "DeviceFleet", "DeviceConfig"]) {
      const resource = schema.resources[`devplatform:index:${kind}`] as Resource;
      expect(resource.properties.ownerMarker, kind).toMatchObject({ type: "string" });
      expect(resource.inputProperties.ownerMarker, kind).toBeUndefined();
    }
  });

  it("finds a reference to an undefined type, a property without a type, and a missing description", () => {
    // The checks above must be able to fail.
    expect(propertyProblems("x", { $ref: "#/types/devplatform:index:Nope", description: "d" }, true)).toEqual(
      ["x refers to #/types/devplatform:index:Nope, not defined"],
    );
    expect(propertyProblems("y", { description: "d" }, true)).toEqual([
      "y must have exactly one of type, $ref, oneOf",
    ]);
    expect(propertyProblems("z", { type: "string" }, true)).toEqual(["z has no description"]);
  });
});
