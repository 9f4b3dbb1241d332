/**
 * The RpsFleet provider as a module of its own (`pulumi-devplatform/providers/rps-fleet`): when the
 * package is installed, Pulumi's closure serializer stores a resource's provider as
 * `require("pulumi-devplatform/providers/rps-fleet")` instead of serializing code.
 */
import { providerModuleExport } from "../provider-module";

export = providerModuleExport("RpsFleet");
