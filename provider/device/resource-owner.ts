/**
 * Who a Device resource is to the one-owner record (guardrails/ownership.ts): its URN where the
 * current call carries one, and, where its check declares its serial number, its checked inputs.
 */
import type { Owner } from "../guardrails/ownership";
import { currentUrn } from "../deployment/request-urn";
import type { Inputs } from "../shared/input-checks";

/** The Device of the current call. */
export function deviceOwner(): Owner {
  const urn = currentUrn();
  return urn === undefined ? { kind: "Device" } : { kind: "Device", urn };
}

/**
 * The owner a check declares: with its inputs as text (the host's own `__` keys left out), which
 * tell two Devices apart where a check carries no URN (guardrails/duplicate-serials.ts).
 */
export function declaringOwner(inputs: Inputs): Owner {
  const own = Object.entries(inputs)
    .filter(([key]) => !key.startsWith("__"))
    .sort(([a], [b]) => a.localeCompare(b));
  return { ...deviceOwner(), inputs: JSON.stringify(own) };
}
