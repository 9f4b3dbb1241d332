/**
 * The pieces of a Pulumi package schema (https://www.pulumi.com/docs/iac/guides/building-extending/
 * packages/schema/) that the kinds and functions describe themselves with: property types, object
 * and enum types, and each resource's or function's specification. Each kind's folder keeps its
 * own (`provider/device/schema.ts`, …) next to the rules it documents; `pluginSchema()` assembles
 * them.
 */

/** The package's name, first part of every token. */
export const PACKAGE = "devplatform";

/**
 * The Go SDK's package import path (`language.go.importBasePath`); its module is the path without
 * the package directory: `plugin-sdks/go` of this repository.
 */
export const GO_IMPORT_BASE_PATH = "github.com/devplatform/pulumi-devplatform/plugin-sdks/go/devplatform";

/** `devplatform:index:<name>`. */
export function token(name: string): string {
  return `${PACKAGE}:index:${name}`;
}

/** A property's type and documentation, as the schema spells it. */
export interface PropertySpec {
  readonly description?: string;
  readonly type?: "string" | "integer" | "number" | "boolean" | "array" | "object";
  readonly items?: PropertySpec;
  readonly additionalProperties?: PropertySpec;
  readonly $ref?: string;
  readonly oneOf?: readonly PropertySpec[];
  readonly secret?: boolean;
  readonly replaceOnChanges?: boolean;
  readonly willReplaceOnChanges?: boolean;
}

/** An object type (`devplatform:index:DeviceFleetDevice`). */
export interface ObjectTypeSpec {
  readonly type: "object";
  readonly description: string;
  readonly properties: Readonly<Record<string, PropertySpec>>;
  readonly required?: readonly string[];
}

/** An enum type whose values are closed. */
export interface EnumTypeSpec {
  readonly type: "string";
  readonly description: string;
  readonly enum: readonly { readonly value: string; readonly name?: string; readonly description: string }[];
}

/** A resource: its inputs, its outputs (inputs included), and which of each are required. */
export interface ResourceSpec {
  readonly description: string;
  readonly inputProperties: Readonly<Record<string, PropertySpec>>;
  readonly requiredInputs: readonly string[];
  readonly properties: Readonly<Record<string, PropertySpec>>;
  readonly required: readonly string[];
}

/** A function: its arguments and its result. */
export interface FunctionSpec {
  readonly description: string;
  readonly inputs: {
    readonly properties: Readonly<Record<string, PropertySpec>>;
    readonly required?: readonly string[];
  };
  readonly outputs: {
    readonly properties: Readonly<Record<string, PropertySpec>>;
    readonly required: readonly string[];
  };
}

/** What a kind or function contributes besides its own spec: the types it refers to. */
export interface TypeContributions {
  readonly objects?: Readonly<Record<string, ObjectTypeSpec>>;
  readonly enums?: Readonly<Record<string, EnumTypeSpec>>;
}

export const string = (description: string): PropertySpec => ({ type: "string", description });
export const boolean = (description: string): PropertySpec => ({ type: "boolean", description });
export const integer = (description: string): PropertySpec => ({ type: "integer", description });
export const number = (description: string): PropertySpec => ({ type: "number", description });

/** A list of `items`. */
export function list(items: PropertySpec, description: string): PropertySpec {
  return { type: "array", items, description };
}

/** A map from string keys to `items`. */
export function map(items: PropertySpec, description: string): PropertySpec {
  return { type: "object", additionalProperties: items, description };
}

/** A reference to a type of this package. */
export function ref(name: string, description?: string): PropertySpec {
  return { $ref: `#/types/${token(name)}`, ...(description === undefined ? {} : { description }) };
}

/** Any value (a configuration value: a scalar, list or object). */
export function anyValue(description: string): PropertySpec {
  return { $ref: "pulumi.json#/Any", description };
}

/** The spec without its description (for a list's or map's element). */
export function element(spec: PropertySpec): PropertySpec {
  const { description: _description, ...rest } = spec;
  return rest;
}
