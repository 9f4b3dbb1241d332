/**
 * Per e2e file: an emulator of its own on loopback, so that files run side by side and each one's
 * request counters count only its own requests.
 */
import { afterAll, beforeAll } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { setFileEmulatorUrl } from "./support/e2e-context";

let emulator: RunningEmulator | undefined;

beforeAll(async () => {
  emulator = await startEmulator({ control: true });
  setFileEmulatorUrl(emulator.url);
});

afterAll(async () => {
  setFileEmulatorUrl(undefined);
  await emulator?.stop();
});
