/**
 * The provider object that `dynamic.Resource` serializes into every resource's state.
 *
 * Pulumi stores the serialized provider in each resource's inputs and outputs, and a file backend
 * rewrites the whole state at every step, so it must stay small; it must also carry no credential
 * and no absolute path. These methods therefore hold only a resource kind and the package's name:
 * at run time they load the installed package and call its implementation, so refresh and destroy
 * run the installed code rather than a copy frozen into state.
 */
import type * as pulumi from "@pulumi/pulumi";

import type { ResourceKind } from "../kinds";
import { markDynamicResources } from "../deployment/dynamic-mark";

/** The package's runtime entry point, as loaded inside the dynamic provider host. */
export interface ProviderRuntimeModule {
  providerImplementation(kind: ResourceKind): Required<pulumi.dynamic.ResourceProvider>;
}

const providers = new Map<ResourceKind, pulumi.dynamic.ResourceProvider>();

/**
 * A kind's provider module, `./providers/<kind in kebab case>` (`pulumi-devplatform/providers/<kind>`
 * in state: these names never move).
 */
function providerModule(kind: ResourceKind): pulumi.dynamic.ResourceProvider {
  const file = kind.replace(/[A-Z]/g, (letter, at: number) => (at === 0 ? "" : "-") + letter.toLowerCase());
  return require(`./providers/${file}`) as pulumi.dynamic.ResourceProvider;
}

/**
 * True when this package was loaded from a `node_modules` folder, as users install it. Pulumi's
 * closure serializer then stores a module of it as `require("pulumi-devplatform/…")`; from a source
 * checkout or an `npm link` it would serialize the module's code by value instead.
 */
function installedAsPackage(): boolean {
  return __dirname.split(/[\\/]/).includes("node_modules");
}

/**
 * The provider object of one resource kind, the same object for every resource: `@pulumi/pulumi`
 * caches serialization per provider object, so a fleet of N devices serializes it once, not N times.
 *
 * Installed, it is the kind's provider module itself, stored in state as one `require` line (about
 * 100 bytes). Elsewhere, it is {@link closureProvider}: a few one-line methods that load the
 * package by name (about 2 KB).
 */
export function serializedProvider(kind: ResourceKind): pulumi.dynamic.ResourceProvider {
  let provider = providers.get(kind);
  if (!provider) {
    provider = installedAsPackage() ? providerModule(kind) : closureProvider(kind);
    providers.set(kind, provider);
  }
  return provider;
}

/**
 * The provider object a resource of this package is constructed with ({@link serializedProvider}),
 * called as the program constructs it, before it registers it: the deployment's record learns that
 * Pulumi's dynamic provider host will serve this package (dynamic-mark.ts).
 */
export function providerOfResource(kind: ResourceKind): pulumi.dynamic.ResourceProvider {
  markDynamicResources();
  return serializedProvider(kind);
}

/** Methods that load the package by name at run time; serialized as code, so kept to one line each. */
export function closureProvider(kind: ResourceKind): pulumi.dynamic.ResourceProvider {
  // Resolved from the program's directory by the dynamic provider host.
  const pkg = "pulumi-devplatform";
  const impl = () => (require(pkg) as ProviderRuntimeModule).providerImplementation(kind);
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
