/**
 * PLACEHOLDER (to be replaced by the schema work of issue 17 before it merges): the package schema
 * the plugin serves from GetSchema and from which `schema.json` and the SDKs are generated.
 */

/** The package's schema, as a Pulumi package schema object. */
export function pluginSchema(version: string): Record<string, unknown> {
  return { name: "devplatform", version };
}
