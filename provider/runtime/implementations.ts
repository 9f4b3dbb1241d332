/**
 * The run-time entry point the serialized providers load (`providerImplementation(kind)`): each
 * kind's implementation, with `configure()` feeding the shared runtime.
 */
import type * as pulumi from "@pulumi/pulumi";
import { deviceConfigImplementation } from "../device-config/provider";
import { deviceImplementation } from "../device/provider";
import { deviceFleetImplementation } from "../device-fleet/provider";
import { rpsProfileImplementation } from "../rps-profile/provider";
import { configureRuntime } from "./platform-client";
import type { ResourceKind } from "./serialized-provider";

type Implementation = Required<pulumi.dynamic.ResourceProvider>;

const implementations: Record<ResourceKind, Omit<Implementation, "configure">> = {
  Device: deviceImplementation,
  DeviceFleet: deviceFleetImplementation,
  DeviceConfig: deviceConfigImplementation,
  RpsProfile: rpsProfileImplementation,
};

const configure: Implementation["configure"] = async (req) => configureRuntime(req);
const byKind = new Map<ResourceKind, Implementation>();

/** The implementation of one resource kind, as the serialized provider calls it (one object per kind). */
export function providerImplementation(kind: ResourceKind): Implementation {
  let implementation = byKind.get(kind);
  if (!implementation) {
    implementation = { ...implementations[kind], configure };
    byKind.set(kind, implementation);
  }
  return implementation;
}
