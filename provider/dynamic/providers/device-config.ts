/**
 * The DeviceConfig provider as a module of its own (`pulumi-devplatform/providers/device-config`): when the
 * package is installed, Pulumi's closure serializer stores a resource's provider as
 * `require("pulumi-devplatform/providers/device-config")` instead of serializing code.
 */
import { providerModuleExport } from "../provider-module";

// A require behind the kind's name: the program never loads the kind, the host loads it alone.
/* eslint-disable @typescript-eslint/no-require-imports */
export = providerModuleExport(
  "DeviceConfig",
  () =>
    (require("../../device-config/provider") as typeof import("../../device-config/provider"))
      .deviceConfigImplementation,
);
