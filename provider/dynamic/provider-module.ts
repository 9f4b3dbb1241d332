/**
 * What a kind's provider module (`pulumi-devplatform/providers/<kind>`) exports. Pulumi's closure
 * serializer stores a resource's provider as a `require` of that module, so the program loads the
 * module when it constructs a resource — but never calls it: the engine calls the provider in the
 * dynamic provider host. In the program the module is therefore a stand-in whose methods load the
 * kind's implementation (every kind and the platform client) on their first call, which a program
 * never makes: loading them cost a batch's no-change preview about 0.3 s of CPU in the program
 * process, beside a floor that loads none of it. In the dynamic provider host the implementation
 * loads with the module, as before, so that the host's requests are hooked (host-status.ts) before
 * the first provider call reads its request.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { ResourceKind } from "../kinds";

type Implementation = Required<pulumi.dynamic.ResourceProvider>;

/** Whether this process is Pulumi's dynamic provider host (`…/cmd/dynamic-provider/index.js`). */
function inDynamicHost(): boolean {
  return /[\\/]cmd[\\/]dynamic-provider[\\/]index\.js$/.test(require.main?.filename ?? "");
}

/**
 * The implementation of one resource kind, as a serialized provider calls it (one object per
 * kind): the package's entry point, loaded on demand (see the module's comment).
 */
export function providerImplementation(kind: ResourceKind): Implementation {
  // A require, not an import: loaded on the first call, never by the program (the module's comment).
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const implementations = require("./implementations") as typeof import("./implementations");
  return implementations.providerImplementation(kind);
}

/** The export of a kind's provider module: the implementation in the host, a stand-in elsewhere. */
export function providerModuleExport(kind: ResourceKind): Implementation {
  if (inDynamicHost()) return providerImplementation(kind);
  const impl = () => providerImplementation(kind);
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
