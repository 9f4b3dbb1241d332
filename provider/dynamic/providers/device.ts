/**
 * The Device provider as a module of its own (`pulumi-devplatform/providers/device`): when the
 * package is installed, Pulumi's closure serializer stores a resource's provider as
 * `require("pulumi-devplatform/providers/device")` instead of serializing code.
 */
import { providerModuleExport } from "../provider-module";

export = providerModuleExport("Device");
