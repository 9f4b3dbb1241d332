/**
 * The package schema the plugin serves from GetSchema and from which `schema.json` (`npm run
 * schema`) and the SDKs are generated. Each kind and function describes itself in its own folder;
 * this assembles them.
 */
import { FUNCTIONS, KINDS, RESOURCE_KINDS, type ResourceKind } from "../kinds";
import { CONFIG_SCHEMA } from "./config-schema";
import { GO_IMPORT_BASE_PATH, token, type ResourceSpec, type TypeContributions } from "../core/schema-spec";

/** The resources by kind, from the list of kinds. */
export const RESOURCE_SPECS = Object.fromEntries(
  RESOURCE_KINDS.map((kind) => [kind, KINDS[kind].spec]),
) as Readonly<Record<ResourceKind, ResourceSpec>>;

/**
 * Where the engine fetches the plugin (`pulumi-resource-devplatform-v<version>-<os>-<arch>.tar.gz`,
 * `npm run plugin:archive`): the release assets of the project's GitHub repository, the source
 * Pulumi knows for third-party providers. Every generated SDK's plugin metadata names it, so `pulumi
 * up` installs the plugin it lacks; a mirror replaces it with `PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES`.
 */
export const PLUGIN_DOWNLOAD_URL = "github://api.github.com/devplatform/pulumi-devplatform";

/** The project's source repository, whose GitHub releases PLUGIN_DOWNLOAD_URL names. */
export const REPOSITORY = "https://github.com/devplatform/pulumi-devplatform";

/** The npm and PyPI names of the generated SDKs, what the Node.js SDK depends on, the Go SDK's import path. */
const LANGUAGE = {
  go: { importBasePath: GO_IMPORT_BASE_PATH },
  nodejs: {
    packageName: "@devplatform/pulumi",
    packageDescription:
      "Pulumi resources for the IoT device platform: devices, fleets, RPS records, configuration.",
    dependencies: { "@pulumi/pulumi": "^3.259.0" },
  },
  python: {
    packageName: "pulumi_devplatform",
    requires: { pulumi: ">=3.259.0,<4.0.0" },
  },
};

function typesOf(contributions: readonly (TypeContributions | undefined)[]): Record<string, unknown> {
  const types: Record<string, unknown> = {};
  for (const contribution of contributions) {
    for (const [name, spec] of [
      ...Object.entries(contribution?.objects ?? {}),
      ...Object.entries(contribution?.enums ?? {}),
    ]) {
      types[token(name)] = spec;
    }
  }
  return Object.fromEntries(Object.entries(types).sort(([a], [b]) => a.localeCompare(b)));
}

/** The package's schema, as a Pulumi package schema object (`version` without a leading `v`). */
export function pluginSchema(version: string): Record<string, unknown> {
  const functions = Object.entries(FUNCTIONS);
  return {
    name: "devplatform",
    displayName: "Device Platform",
    version,
    description:
      "Devices, device fleets, RPS records and TSL-validated device configuration of an IoT device platform.",
    keywords: ["pulumi", "devplatform", "iot", "category/infrastructure", "kind/native"],
    license: "Apache-2.0",
    // The generated SDKs' package metadata (package.json's `repository`, which `npm publish
    // --provenance` checks against the repository that built it).
    repository: REPOSITORY,
    pluginDownloadURL: PLUGIN_DOWNLOAD_URL,
    meta: { moduleFormat: "(.*)" },
    config: { variables: CONFIG_SCHEMA },
    provider: {
      description: "The provider of the device platform: one application (its base URL and credentials).",
      inputProperties: CONFIG_SCHEMA,
      properties: {},
    },
    resources: Object.fromEntries(Object.entries(RESOURCE_SPECS).map(([kind, spec]) => [token(kind), spec])),
    functions: Object.fromEntries(functions.map(([name, fn]) => [token(name), fn.spec])),
    types: typesOf([
      ...RESOURCE_KINDS.map((kind) => KINDS[kind].types),
      ...functions.map(([, fn]) => fn.types),
    ]),
    language: LANGUAGE,
  };
}
