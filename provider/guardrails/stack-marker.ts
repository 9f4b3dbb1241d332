/**
 * The owner marker of the stack the current provider call belongs to. Neither front-end is told
 * its stack by the engine's Configure (the dynamic host has no stack in its environment, and a
 * plugin's CheckConfig/Configure carry none), but every resource request carries the resource's
 * URN, `urn:pulumi:<stack>::<project>::…`, which both front-ends note for the call (see
 * request-urn.ts): the stack is read from it. A dynamic host's first request, read before this
 * module loaded, has none noted: the engine's root resource (the Stack) names the stack then. The
 * instance that tells namesakes apart is the backend's (see stack-instance.ts).
 */
import { markerOf, stackOfUrn } from "../shared/owner-marker";
import { providerSettings } from "../platform-access/platform-client";
import { deploymentUrn } from "../deployment/request-urn";
import { stackInstance } from "../deployment/stack-instance";

/**
 * The marker tag naming the current call's stack (`pulumi-stack:<project>/<stack>@<instance>`), or
 * undefined when neither the call nor the engine names one — a provider object called outside a
 * deployment (the integration tests'): there, devices are written without a marker and no marker
 * is enforced.
 */
export async function stackMarker(): Promise<string | undefined> {
  const urn = await deploymentUrn();
  const stack = urn === undefined ? undefined : stackOfUrn(urn);
  if (stack === undefined) return undefined;
  const settings = await providerSettings();
  return markerOf(stack, settings.ownerTag, stackInstance());
}

/** `stack "proj/dev"`, for messages. */
export function showStack(stack: string): string {
  return `stack ${JSON.stringify(stack)}`;
}
