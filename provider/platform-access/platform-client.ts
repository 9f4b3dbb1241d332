/**
 * The provider's run-time state inside the dynamic provider host or the provider plugin: the
 * settings delivered by `configure()` (or the plugin's Configure), and one platform client per process shared by every resource (so all of them
 * share one token and one connection pool).
 *
 * The host caches a provider before its `configure()` has finished and the engine calls in
 * parallel, so every method that talks to the platform waits here for configuration to complete.
 */
import type { DevicePlatformClient } from "../../sdk/index";
import { exitWhenEngineGone } from "../deployment/engine-watch";
import { paceProgress } from "./pace-progress";
import { machinePaceStore } from "./pace-store";
import { deploymentQuotaShare } from "./quota-share";
import { resolveSettings, type ProviderSettings } from "./settings";
import { joinApplication } from "../deployment/shared-record";
import { setOwnerTagPrefix } from "../shared/owner-marker";

/** What a front-end's configuration offers: each key's value (`devplatform:baseUrl`, …). */
export interface ConfigReader {
  get(key: string): string | undefined;
}

type SettingsResult = { settings: ProviderSettings } | { error: Error };

let resolveConfigured: (result: SettingsResult) => void = () => undefined;
const configured = new Promise<SettingsResult>((resolve) => {
  resolveConfigured = resolve;
});
let isConfigured = false;
let client: DevicePlatformClient | undefined;

/**
 * Requests in flight at once from this process (connections of the client's pool), shared by all
 * its resources: as many as one DeviceFleet's largest `concurrency` (64), so that the documented
 * range is true of a fleet alone. Several fleets of one process share it.
 */
export const CLIENT_CONCURRENCY = 64;

/** How long a method waits for `configure()` before it falls back to the environment alone. */
const CONFIGURE_GRACE_MS = 10_000;

/**
 * Records the configuration from the engine. Never throws: a missing setting is reported by the
 * first operation that needs the platform, so previews that make no request still work.
 */
export function configureRuntime<C extends ConfigReader>(req: { config: C }): void {
  configureRuntimeWith(() => resolveSettings((key) => req.config.get(key)));
}

/**
 * Records the settings `resolve` gives (or the ProviderConfigurationError it throws) as the
 * process's configuration: the provider plugin's Configure, from its own inputs. The first call
 * wins; the settings are per process.
 */
export function configureRuntimeWith(resolve: () => ProviderSettings): void {
  if (isConfigured) return;
  isConfigured = true;
  exitWhenEngineGone();
  try {
    const settings = resolve();
    // Joined now, not at the first request: a provider instance with only deletes to do, which
    // sends nothing until the end, would look to the deployment's others like one still starting.
    joinApplication(settings.clientId);
    resolveConfigured({ settings });
  } catch (error) {
    resolveConfigured({ error: error as Error });
  }
}

let settled: Promise<SettingsResult> | undefined;

/** The settings once `configure()` delivered them (or, after the grace period, the environment's). */
async function settingsOnceConfigured(): Promise<ProviderSettings> {
  settled ??= Promise.race([configured, environmentAfterGrace()]);
  const result = await settled;
  if ("error" in result) throw result.error;
  // The one-owner record this process shares with the deployment's others is the application's.
  joinApplication(result.settings.clientId);
  setOwnerTagPrefix(result.settings.ownerTag);
  return result.settings;
}

/** The process's settings once `configure()` delivered them. @throws ProviderConfigurationError */
export function providerSettings(): Promise<ProviderSettings> {
  return settingsOnceConfigured();
}

function environmentAfterGrace(): Promise<SettingsResult> {
  return new Promise((resolve) => {
    setTimeout(() => {
      try {
        resolve({ settings: resolveSettings(() => undefined) });
      } catch (error) {
        resolve({ error: error as Error });
      }
    }, CONFIGURE_GRACE_MS).unref();
  });
}

/**
 * What is wrong with the provider's configuration (a missing credential, a base URL that breaks the
 * rules, a bad apiVersion or maxRetries), naming the key, or undefined when it is usable. Every
 * resource's `check` asks, so that a preview fails on it without a request and without a stack.
 */
export async function configurationProblem(): Promise<string | undefined> {
  try {
    await settingsOnceConfigured();
    return undefined;
  } catch (error) {
    if (error instanceof Error && error.name === "ProviderConfigurationError") return error.message;
    throw error;
  }
}

/**
 * The SDK's client module, loaded when the first client is made: the SDK (its schemas, webhooks,
 * TSL checks, HTTP pool) is most of what a provider process would load, and a process that sends no
 * request — the dynamic provider host of a no-change preview — never needs it.
 */
let sdkClientLoad: Promise<typeof import("../../sdk/client")> | undefined;

/** The process's platform client, created on first use from the configured settings. */
export async function platformClient(): Promise<DevicePlatformClient> {
  const settings = await settingsOnceConfigured();
  sdkClientLoad ??= import("../../sdk/client.js");
  const { DevicePlatformClient } = await sdkClientLoad;
  client ??= new DevicePlatformClient({
    baseUrl: settings.baseUrl,
    clientId: settings.clientId,
    clientSecret: settings.clientSecret,
    apiVersion: settings.apiVersion,
    maxRetries: settings.maxRetries,
    rateLimitWaitMs: settings.rateLimitWait * 1000,
    // Every resource of the process shares this client; a DeviceFleet alone runs 16 requests at once.
    concurrency: CLIENT_CONCURRENCY,
    // One pace for every provider process of this machine on the application (pace-store.ts): a
    // rate_limited refusal slows them all, and they keep to one rate; the wait shows on the
    // resource's row.
    paceStore: machinePaceStore(settings.clientId),
    onPace: paceProgress(),
    // The bench's `pacing off` (bench/pacing-ab.ts): what the pacing costs, measured beside it.
    pacing: process.env.DEVPLATFORM_PACING !== "off",
    // A spent daily quota would refuse every later request of the deployment too: send none, from
    // this process or, told through the deployment's shared record, from its other processes.
    haltWhenQuotaExhausted: true,
    quotaHaltShare: deploymentQuotaShare,
  });
  return client;
}

/**
 * Closes the process's client so the next {@link platformClient} makes a new one, as the next
 * deployment's provider process would: in-process tests of several deployments use it, since a
 * client halted by a spent quota stays halted.
 */
export async function startNewDeployment(): Promise<void> {
  const previous = client;
  client = undefined;
  deploymentQuotaShare.reset();
  await previous?.close();
}
