/**
 * The run-time entry point the serialized providers load (`providerImplementation(kind)`): each
 * kind's implementation, with `configure()` feeding the shared runtime.
 */
import type * as pulumi from "@pulumi/pulumi";
import { deviceConfigImplementation } from "../device-config/provider";
import { deviceImplementation } from "../device/provider";
import { deviceFleetImplementation } from "../device-fleet/provider";
import { rpsProfileImplementation } from "../rps-profile/provider";
import { noteProgramRan } from "./ownership";
import { withSerializedProvider } from "./partial-failure";
import { configurationProblem, configureRuntime } from "./platform-client";
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
    const own = implementations[kind];
    // The engine checks resources only when it runs the program (`up`, `preview`), never in
    // `destroy`: the one-owner record keeps that apart (see programRan).
    const check: Implementation["check"] = async (olds, news) => {
      noteProgramRan();
      // Bad configuration fails here, at preview, before any request: one failure naming the key.
      const problem = await configurationProblem();
      if (problem !== undefined) return { inputs: news, failures: [{ property: "", reason: problem }] };
      return own.check(olds, news);
    };
    // A partial failure's recorded outputs must carry the serialized provider, or the stack is
    // stranded: see partial-failure.ts.
    const create: Implementation["create"] = (inputs) =>
      own.create(inputs).catch((error: unknown) => Promise.reject(withSerializedProvider(error, inputs)));
    const update: Implementation["update"] = (id, olds, news) =>
      own
        .update(id, olds, news)
        .catch((error: unknown) => Promise.reject(withSerializedProvider(error, news)));
    implementation = { ...own, check, create, update, configure };
    byKind.set(kind, implementation);
  }
  return implementation;
}
