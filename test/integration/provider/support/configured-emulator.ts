/**
 * An emulator on loopback with the provider's runtime configured for it, as `configure()` would
 * configure it inside the dynamic provider host. One per test file (each file runs in its own
 * worker, and the runtime is per process).
 */
import { afterAll, beforeAll } from "vitest";
import { startEmulator } from "../../../../emulator";
import { configureRuntime, platformClient } from "../../../../provider/runtime/platform-client";

export type Emulator = Awaited<ReturnType<typeof startEmulator>>;

/** Starts the emulator before the file's tests and stops it after; read `.emulator` inside tests. */
export function useConfiguredEmulator(options: Parameters<typeof startEmulator>[0] = {}): {
  emulator: Emulator;
} {
  const handle = {} as { emulator: Emulator };
  beforeAll(async () => {
    handle.emulator = await startEmulator({ control: true, ...options });
    const settings: Record<string, string> = {
      "devplatform:baseUrl": handle.emulator.url,
      "devplatform:clientId": "demo-client",
      "devplatform:clientSecret": "demo-secret",
    };
    configureRuntime({
      config: { get: (key: string) => settings[key], require: (key: string) => settings[key] as string },
    });
  });
  afterAll(async () => {
    await (await platformClient()).close();
    await handle.emulator.stop();
  });
  return handle;
}
