/**
 * The Device provider as a module of its own (`pulumi-devplatform/providers/device`): when the
 * package is installed, Pulumi's closure serializer stores a resource's provider as
 * `require("pulumi-devplatform/providers/device")` instead of serializing code.
 */
import { providerModuleExport } from "../provider-module";

// A require behind the kind's name: the program never loads the kind, the host loads it alone.
/* eslint-disable @typescript-eslint/no-require-imports */
export = providerModuleExport(
  "Device",
  () => (require("../../device/provider") as typeof import("../../device/provider")).deviceImplementation,
);
