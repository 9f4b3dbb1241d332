/** What each function of the package (`provider/functions/get-*.ts`) provides: its schema and its call. */
import type { PluginFunction } from "../plugin/contract";
import type { FunctionSpec, TypeContributions } from "../plugin/schema-spec";

/** A function of the package: `devplatform:index:<name>`. */
export interface PackageFunction extends PluginFunction {
  /** Its arguments and result in the package schema. */
  readonly spec: FunctionSpec;
  /** The object and enum types its spec refers to. */
  readonly types?: TypeContributions;
}
