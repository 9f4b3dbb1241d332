/**
 * The RpsProfile provider as a module of its own (`pulumi-devplatform/providers/rps-profile`): when the
 * package is installed, Pulumi's closure serializer stores a resource's provider as
 * `require("pulumi-devplatform/providers/rps-profile")` instead of serializing code.
 */
import { providerModuleExport } from "../provider-module";

export = providerModuleExport("RpsProfile");
