/**
 * One kind's definition as the dynamic provider host calls it: the definition (`provider/<kind>/`)
 * as a `pulumi.dynamic.ResourceProvider`, with `configure()` feeding the shared runtime. It translates
 * and nothing else: the kind's one diff answers `changes`, `replaces` and `deleteBeforeReplace`
 * (the engine ignores a dynamic provider's `stables`), and a fleet's detailed diff reaches the
 * engine through the host's response (host-detailed-diff.ts). It imports no kind: a kind's provider
 * module hands its definition in, so that the host loads the one kind it serves.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { KindDefinition } from "../core/kind";
import type { ResourceKind } from "../kinds";
import { setDefaultLogSink } from "../output/log";
import { configureRuntime } from "../platform-access/platform-client";
import { checkingConfigurationFirst } from "../guardrails/configuration-check";
import { dynamicStatus, prepareDynamicStatus } from "./host-status";
import { pulumiLogSink } from "./pulumi-log";
import { withSerializedProvider } from "./partial-failure";
import { engineFailures } from "../shared/engine-failures";
import { dynamicFleetDetail, dynamicRpsFleetDetail, offerDetailedDiff } from "./host-detailed-diff";
// Every module that takes other provider processes' facts, whatever kind this host serves: a fact
// another process published is applied only by a handler registered when it is read, and a host
// serving one kind must still know what the others declared. Without them, a move of the demo's
// stack to the plugin made the dynamic host's delete of the old RpsProfile delete the record the
// plugin's new one had adopted (test/e2e/plugin-move.test.ts). Every kind loaded them before.
import "../guardrails/ownership";
import "../guardrails/rps-ownership";
import "../guardrails/removal-budget";
import "../guardrails/property-ownership";
import "../platform-access/quota-share";

type Implementation = Required<pulumi.dynamic.ResourceProvider>;

// The kinds' messages go to `@pulumi/pulumi`'s log. In the dynamic provider host, its requests are
// hooked now, so that the first provider call already has its URN, and status lines go on the
// resource's row (see host-status.ts).
prepareDynamicStatus();
setDefaultLogSink(pulumiLogSink((message) => dynamicStatus(message)));

/** A kind's definition as the dynamic provider host calls it (without `configure`). */
export function dynamicOperationsOf(
  kind: ResourceKind,
  definition: KindDefinition,
): Omit<Implementation, "configure"> {
  return {
    async check(olds, news) {
      const { inputs, failures } = await definition.check(olds, news);
      return { inputs, failures: engineFailures(failures) };
    },
    async diff(id, olds, news) {
      const { changes, replaces, deleteBeforeReplace, detailedDiff } = await definition.diff(id, olds, news);
      // A fleet's detail, so that the engine shows the devices that change, not every entry (see
      // host-detailed-diff.ts); the other kinds' inputs are few, and the engine's view of them is whole.
      if (changes && kind === "DeviceFleet") offerDetailedDiff(dynamicFleetDetail(detailedDiff));
      if (changes && kind === "RpsFleet") offerDetailedDiff(dynamicRpsFleetDetail(detailedDiff));
      return { changes, replaces: [...replaces], deleteBeforeReplace };
    },
    // A partial failure's recorded outputs must carry the serialized provider, or the stack is
    // stranded: see partial-failure.ts.
    create: (inputs) =>
      definition
        .create(inputs)
        .catch((error: unknown) => Promise.reject(withSerializedProvider(error, inputs))),
    read: (id, props) => definition.read(id, props),
    update: (id, olds, news) =>
      definition
        .update(id, olds, news)
        .catch((error: unknown) => Promise.reject(withSerializedProvider(error, news))),
    delete: (id, props) => definition.delete(id, props),
  };
}

const configure: Implementation["configure"] = async (req) => configureRuntime(req);

/** `definition` (its check preceded by the configuration's) as the serialized provider calls it. */
export function dynamicImplementationOf(kind: ResourceKind, definition: KindDefinition): Implementation {
  return { ...dynamicOperationsOf(kind, checkingConfigurationFirst(definition)), configure };
}
