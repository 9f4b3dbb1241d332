/**
 * The dynamic front-end's provider of each kind by name, from the one list (`provider/kinds.ts`):
 * what the package's entry point offers a serialized provider stored as code (`providerImplementation`,
 * which loads every kind), and what in-process tests call. A kind's provider module, as state stores it
 * when the package is installed, loads its own kind alone (provider-module.ts).
 */
import type * as pulumi from "@pulumi/pulumi";
import { KINDS, RESOURCE_KINDS, type ResourceKind } from "../kinds";
import { dynamicImplementationOf, dynamicOperationsOf } from "./kind-implementation";

type Implementation = Required<pulumi.dynamic.ResourceProvider>;

/** Each kind's dynamic operations on its definition alone (no configuration check first). */
export const dynamicOperations = Object.fromEntries(
  RESOURCE_KINDS.map((kind) => [kind, dynamicOperationsOf(kind, KINDS[kind])]),
) as Readonly<Record<ResourceKind, Omit<Implementation, "configure">>>;

const byKind = new Map<ResourceKind, Implementation>();

/** The implementation of one resource kind, as the serialized provider calls it (one object per kind). */
export function providerImplementation(kind: ResourceKind): Implementation {
  let implementation = byKind.get(kind);
  if (!implementation) {
    implementation = dynamicImplementationOf(kind, KINDS[kind]);
    byKind.set(kind, implementation);
  }
  return implementation;
}
