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

/** The resource kinds, also the `type` part of their type tokens. */
export type ResourceKind = "Device" | "RpsProfile" | "DeviceConfig";

/** The package's runtime entry point, as loaded inside the dynamic provider host. */
export interface ProviderRuntimeModule {
  providerImplementation(kind: ResourceKind): Required<pulumi.dynamic.ResourceProvider>;
}

const providers = new Map<ResourceKind, pulumi.dynamic.ResourceProvider>();

/**
 * The provider object of one resource kind, the same object for every resource: `@pulumi/pulumi`
 * caches serialization per provider object, so a fleet of N devices serializes it once, not N times.
 */
export function serializedProvider(kind: ResourceKind): pulumi.dynamic.ResourceProvider {
  let provider = providers.get(kind);
  if (!provider) {
    provider = buildProvider(kind);
    providers.set(kind, provider);
  }
  return provider;
}

function buildProvider(kind: ResourceKind): pulumi.dynamic.ResourceProvider {
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
