/** What each function of the package (`provider/functions/get-*.ts`) provides: its schema and its call. */
import type { FunctionDefinition } from "../core/kind";
import type { FunctionSpec, TypeContributions } from "../core/schema-spec";

/** A function of the package: `devplatform:index:<name>`. */
export interface PackageFunction extends FunctionDefinition {
  /** Its arguments and result in the package schema. */
  readonly spec: FunctionSpec;
  /** The object and enum types its spec refers to. */
  readonly types?: TypeContributions;
}
