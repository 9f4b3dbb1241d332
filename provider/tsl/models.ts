/**
 * The TSL models of devices, fetched once per deployment: a process-wide cache (the dynamic
 * provider host runs one process per deployment) keyed by deviceId and the TSL version this
 * deployment set for it (see versions.ts), with identical models interned
 * so that a fleet of one model is indexed and validated once.
 *
 * Why per device and not per model name: the platform serves a TSL model per device (Query the TSL
 * Model of a Device), and each device may select its own TSL version (Update a Device
 * Information's `tslVersion`), which neither Query a Specific Device nor Search reports. Two
 * devices of one model name can therefore accept different properties (the emulator's sensor
 * 1.1.0 adds `sampleWindow` to 1.0.0), so validating a fleet against one device's model would pass
 * values some devices reject. The price is one GET per device per deployment, concurrency-limited,
 * and only when a configuration is created or changed (check skips unchanged inputs).
 */
import { NotFoundError, type DevicePlatformClient } from "../../sdk";
import { forEachLimited } from "../shared/fanout";
import { indexModel, modelFingerprint, type IndexedModel } from "./model-index";
import { modelCacheKey } from "./versions";

/** GETs of TSL models in flight at once for one resource (the client caps all requests too). */
const FETCH_CONCURRENCY = 16;

const byDevice = new Map<string, Promise<IndexedModel>>();
const byFingerprint = new Map<string, IndexedModel>();

/** The models of a set of devices; devices the platform does not know are listed apart. */
export interface DeviceModels {
  /** deviceId → model; devices with identical models share one object. */
  readonly models: ReadonlyMap<string, IndexedModel>;
  /** Devices the platform answered 404 for, with its error. */
  readonly missing: ReadonlyMap<string, NotFoundError>;
}

/** One device's model, from the cache or fetched (concurrent callers share one request). */
export function thingModelOf(client: DevicePlatformClient, deviceId: string): Promise<IndexedModel> {
  // Keyed by the TSL version this deployment set, so a device switched to another version is read again.
  const key = modelCacheKey(deviceId);
  let model = byDevice.get(key);
  if (!model) {
    model = client.getThingModel(deviceId).then(intern);
    byDevice.set(key, model);
    // A failure must not answer later calls: a retried deployment step fetches again.
    model.catch(() => {
      if (byDevice.get(key) === model) byDevice.delete(key);
    });
  }
  return model;
}

/** The models of many devices, fetched at most {@link FETCH_CONCURRENCY} at a time. */
export async function thingModelsOf(
  client: DevicePlatformClient,
  deviceIds: readonly string[],
): Promise<DeviceModels> {
  const models = new Map<string, IndexedModel>();
  const missing = new Map<string, NotFoundError>();
  await forEachLimited(unique(deviceIds), FETCH_CONCURRENCY, async (deviceId) => {
    try {
      models.set(deviceId, await thingModelOf(client, deviceId));
    } catch (error) {
      if (!(error instanceof NotFoundError)) throw error;
      missing.set(deviceId, error);
    }
  });
  return { models, missing };
}

/** Devices grouped by model, in the order of their first device; one validation per group. */
export function groupByModel(
  models: ReadonlyMap<string, IndexedModel>,
): { model: IndexedModel; deviceIds: string[] }[] {
  const groups = new Map<IndexedModel, string[]>();
  for (const [deviceId, model] of models) {
    const group = groups.get(model) ?? [];
    group.push(deviceId);
    groups.set(model, group);
  }
  return [...groups].map(([model, deviceIds]) => ({ model, deviceIds }));
}

/** Forgets every cached model (tests; a long-lived process that must see model changes). */
export function forgetThingModels(): void {
  byDevice.clear();
  byFingerprint.clear();
}

function intern(model: Parameters<typeof indexModel>[0]): IndexedModel {
  const fingerprint = modelFingerprint(model);
  let indexed = byFingerprint.get(fingerprint);
  if (!indexed) {
    indexed = indexModel(model);
    byFingerprint.set(fingerprint, indexed);
  }
  return indexed;
}

function unique(values: readonly string[]): string[] {
  return [...new Set(values)];
}
