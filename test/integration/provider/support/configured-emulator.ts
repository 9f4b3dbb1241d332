/**
 * An emulator on loopback with the provider's runtime configured for it, as `configure()` would
 * configure it inside the dynamic provider host. One per test file (each file runs in its own
 * worker, and the runtime is per process).
 */
import { afterAll, beforeAll } from "vitest";
import { startEmulator } from "../../../../emulator";
import { configureRuntime, platformClient } from "../../../../provider/platform-access/platform-client";

export type Emulator = Awaited<ReturnType<typeof startEmulator>>;

/**
 * Starts the emulator before the file's tests and stops it after; read `.emulator` inside tests.
 * `settings` adds provider settings (`{ rateLimitWait: "0" }`) to the credentials.
 */
export function useConfiguredEmulator(
  options: Parameters<typeof startEmulator>[0] = {},
  settings: Record<string, string> = {},
): {
  emulator: Emulator;
} {
  const handle = {} as { emulator: Emulator };
  beforeAll(async () => {
    handle.emulator = await startEmulator({ control: true, ...options });
    const config: Record<string, string> = {
      "devplatform:baseUrl": handle.emulator.url,
      "devplatform:clientId": "demo-client",
      "devplatform:clientSecret": "demo-secret",
      ...Object.fromEntries(Object.entries(settings).map(([key, value]) => [`devplatform:${key}`, value])),
    };
    configureRuntime({
      config: { get: (key: string) => config[key], require: (key: string) => config[key] as string },
    });
  });
  afterAll(async () => {
    await (await platformClient()).close();
    await handle.emulator.stop();
  });
  return handle;
}
