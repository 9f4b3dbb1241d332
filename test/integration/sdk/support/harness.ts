/**
 * Shared set-up of the SDK integration tests: a real emulator on loopback, a client recording its
 * request events, serial-number generators and a small concurrency helper.
 */
import { randomBytes } from "node:crypto";
import { startEmulator } from "../../../../emulator";
import {
  DevicePlatformClient,
  clearTokenCache,
  type DevicePlatformClientOptions,
  type RequestEvent,
} from "../../../../sdk";

export type Emulator = Awaited<ReturnType<typeof startEmulator>>;
export type EmulatorOptions = NonNullable<Parameters<typeof startEmulator>[0]>;

/** An emulator and a client of it. */
export interface Harness {
  readonly emulator: Emulator;
  readonly client: DevicePlatformClient;
  /** Every request event of `client`, in order. */
  readonly events: RequestEvent[];
  /** A further client of the same emulator, recording into `events` too. */
  newClient(options?: Partial<DevicePlatformClientOptions>): DevicePlatformClient;
  stop(): Promise<void>;
}

/** Starts an emulator (control API on) and a client with the emulator's default credentials. */
export async function startHarness(
  emulatorOptions: EmulatorOptions = {},
  clientOptions: Partial<DevicePlatformClientOptions> = {},
): Promise<Harness> {
  clearTokenCache();
  const emulator = await startEmulator({ control: true, ...emulatorOptions });
  const events: RequestEvent[] = [];
  const clients: DevicePlatformClient[] = [];
  const newClient = (options: Partial<DevicePlatformClientOptions> = {}) => {
    const client = new DevicePlatformClient({
      baseUrl: emulator.url,
      clientId: emulatorOptions.clientId ?? "demo-client",
      clientSecret: emulatorOptions.clientSecret ?? "demo-secret",
      onEvent: (event) => events.push(event),
      ...clientOptions,
      ...options,
    });
    clients.push(client);
    return client;
  };
  const client = newClient();
  return {
    emulator,
    client,
    events,
    newClient,
    async stop() {
      await Promise.all(clients.map((c) => c.close()));
      await emulator.stop();
    },
  };
}

/**
 * Unique sensor serial numbers ("24" + 14 hex digits) for one test file: a random middle part keeps
 * files apart, a counter keeps numbers within a file apart.
 */
export function serialNumbers(): () => string {
  const middle = randomBytes(3).toString("hex").toUpperCase();
  let counter = 0;
  return () => `24${middle}${(counter++).toString(16).toUpperCase().padStart(8, "0")}`;
}

/** Runs `fn` over `items` with at most `limit` in flight; resolves with results in input order. */
export async function mapConcurrent<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
) {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index] as T, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/** Events of attempts that were followed by a retry (a 401 token refresh counts separately). */
export function retryEvents(events: readonly RequestEvent[]): RequestEvent[] {
  return events.filter((e) => e.retryInMs !== undefined && e.status !== 401);
}

/** Counts of retried attempts by cause: HTTP status, or `reset` for attempts with no response. */
export function retriesByCause(events: readonly RequestEvent[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const event of retryEvents(events)) {
    const cause = event.status === null ? "no response" : String(event.status);
    counts[cause] = (counts[cause] ?? 0) + 1;
  }
  return counts;
}
