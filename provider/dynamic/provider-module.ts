/**
 * What a kind's provider module (`pulumi-devplatform/providers/<kind>`) exports. Pulumi's closure
 * serializer stores a resource's provider as a `require` of that module, so the program loads the
 * module when it constructs a resource — but never calls it: the engine calls the provider in the
 * dynamic provider host. Each provider module therefore hands in its kind's definition as a loader
 * (a `require` behind the kind's name), which runs:
 * - in the program, never: the module is a stand-in whose methods load the kind on their first call,
 *   which a program never makes (loading it cost a batch's no-change preview about 0.3 s of CPU in
 *   the program process, beside a floor that loads none of it);
 * - in the dynamic provider host, with the module, so that the host's requests are hooked
 *   (host-status.ts) before the first provider call reads its request — and for that kind alone:
 *   the host gets the provider per resource, and loading every kind, the functions and the SDK
 *   client cost each host about 0.4 s of CPU before its first answer.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { KindDefinition } from "../core/kind";
import type { ResourceKind } from "../kinds";

type Implementation = Required<pulumi.dynamic.ResourceProvider>;

/** Whether this process is Pulumi's dynamic provider host (`…/cmd/dynamic-provider/index.js`). */
function inDynamicHost(): boolean {
  return /[\\/]cmd[\\/]dynamic-provider[\\/]index\.js$/.test(require.main?.filename ?? "");
}

/**
 * The implementation of one resource kind, as a serialized provider stored as code calls it (one
 * object per kind): the package's entry point, loaded on demand, with every kind (see the module's
 * comment).
 */
export function providerImplementation(kind: ResourceKind): Implementation {
  // A require, not an import: loaded on the first call, never by the program (the module's comment).
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const implementations = require("./implementations") as typeof import("./implementations");
  return implementations.providerImplementation(kind);
}

/** One kind's implementation from its definition, loaded (with the host's hooks) on the first call. */
function implementationLoader(kind: ResourceKind, load: () => KindDefinition): () => Implementation {
  let implementation: Implementation | undefined;
  return () => {
    if (!implementation) {
      // A require, not an import: the program never loads it (the module's comment).
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const host = require("./kind-implementation") as typeof import("./kind-implementation");
      implementation = host.dynamicImplementationOf(kind, load());
    }
    return implementation;
  };
}

/**
 * The export of a kind's provider module, given the kind's definition as a loader: the
 * implementation in the host, a stand-in elsewhere.
 */
export function providerModuleExport(kind: ResourceKind, load: () => KindDefinition): Implementation {
  const impl = implementationLoader(kind, load);
  if (inDynamicHost()) return impl();
  return {
    configure: (req) => impl().configure(req),
    check: (olds, news) => impl().check(olds, news),
    diff: (id, olds, news) => impl().diff(id, olds, news),
    create: (inputs) => impl().create(inputs),
    read: (id, props) => impl().read(id, props),
    update: (id, olds, news) => impl().update(id, olds, news),
    delete: (id, props) => impl().delete(id, props),
  };
}
