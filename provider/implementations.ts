/**
 * The run-time entry point the serialized providers load (`providerImplementation(kind)`): each
 * kind's implementation, with `configure()` feeding the shared runtime.
 */
import type * as pulumi from "@pulumi/pulumi";
import { deviceConfigImplementation } from "./device-config-provider";
import { deviceImplementation } from "./device-provider";
import { rpsProfileImplementation } from "./rps-profile-provider";
import { configureRuntime } from "./runtime";
import type { ResourceKind } from "./serialized-provider";

type Implementation = Required<pulumi.dynamic.ResourceProvider>;

const implementations: Partial<Record<ResourceKind, Omit<Implementation, "configure">>> = {
  Device: deviceImplementation,
  DeviceConfig: deviceConfigImplementation,
  RpsProfile: rpsProfileImplementation,
};

/** The implementation of one resource kind, as the serialized provider calls it. */
export function providerImplementation(kind: ResourceKind): Implementation {
  const implementation = implementations[kind];
  if (!implementation) throw new Error(`pulumi-devplatform has no ${kind} resource in this version`);
  return {
    ...implementation,
    configure: async (req) => configureRuntime(req),
  };
}
