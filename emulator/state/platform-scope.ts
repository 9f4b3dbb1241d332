/**
 * The part of the emulator's context that changes platform state out of band (the control API's
 * seed, interleaved writers, webhook events): the store and the clock. Those helpers take this
 * rather than the whole context, which itself builds them.
 */
import type { Clock } from "../clock";
import type { EmulatorStore } from "./store";

/** The platform's state and the emulator's clock. */
export interface PlatformScope {
  readonly store: EmulatorStore;
  readonly clock: Clock;
}
