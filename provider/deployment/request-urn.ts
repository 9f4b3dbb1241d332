/**
 * The URN of the resource the current provider call is about, carried through the call's async
 * context. Both front-ends set it: the plugin from each request's `urn`, the dynamic front-end from
 * the host's requests (see provider/dynamic/host-status.ts). The one-owner record names owners by it: two
 * resources of one name under different parents are two owners.
 */
import { AsyncLocalStorage } from "node:async_hooks";

const urnOfRequest = new AsyncLocalStorage<string>();

/** The current call's resource URN, when a front-end gave one. */
export function currentUrn(): string | undefined {
  const urn = urnOfRequest.getStore();
  return urn === "" ? undefined : urn;
}

/** Runs `work` as a call about the resource `urn`. */
export function withRequestUrn<T>(urn: string, work: () => T): T {
  return urnOfRequest.run(urn, work);
}

/** Makes `urn` the current call's URN from here on in this async context (the host's getters). */
export function enterRequestUrn(urn: string): void {
  urnOfRequest.enterWith(urn);
}

let rootUrnSource: (() => Promise<string | undefined>) | undefined;

/**
 * Gives the URN of the deployment's root resource (the Stack) a way to be found, for calls that
 * carry no URN of their own: the dynamic host's first request is read before the provider's module
 * is loaded, so its getters noted nothing (see provider/dynamic/host-status.ts).
 */
export function setRootUrnSource(source: () => Promise<string | undefined>): void {
  rootUrnSource = source;
}

/**
 * A URN of the current deployment: the call's own, or else the root resource's when a front-end
 * gave a way to ask for it. Enough to read the stack and project from; never a resource's identity.
 */
export async function deploymentUrn(): Promise<string | undefined> {
  return currentUrn() ?? (rootUrnSource === undefined ? undefined : await rootUrnSource());
}
