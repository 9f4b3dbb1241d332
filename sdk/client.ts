/**
 * `DevicePlatformClient`: the typed client of the device platform's HTTP API.
 *
 * Each method describes its request (path, body, response schema, whether it may be repeated) and
 * hands it to the executor, which owns tokens, retries, parsing and errors.
 */
import { inspect } from "node:util";
import { TokenManager, tokenCacheKey } from "./auth";
import {
  callService as callServiceOperation,
  deleteDevice as deleteDeviceOperation,
  propertyHistory as propertyHistoryOperation,
} from "./device-operations";
import { createTasksInChunks, type CreateConfigTasksOptions } from "./config-tasks";
import { lookUpAddedDevice } from "./added-device";
import type { CallServiceOptions, DeleteDeviceOptions, SetRpsProfileResult } from "./operation-types";
import type { PropertyHistory } from "./history-pages";
import { checkDeviceId, checkDeviceIds, checkInput, invalidInput } from "./input-checks";
import { RequestExecutor, type OperationSpec } from "./executor";
import { rawInteger, stringifyLosslessJson, type JsonInput } from "./lossless-json";
import { resolveOptions, type DevicePlatformClientOptions, type ResolvedOptions } from "./options";
import { AdaptivePacer } from "./pacer";
import { PageIterator } from "./pagination";
import { pinSecret } from "./redact";
import { z } from "zod";
import {
  deviceConfigSchema,
  propertiesResultSchema,
  taskCreateResultSchema,
  type CreateConfigTasksInput,
  type DeviceConfig,
  type DeviceTaskRelation,
  type PropertiesResult,
  type PropertyValuesInput,
} from "./schemas/config";
import {
  addDeviceInputSchema,
  deviceFilterSchema,
  deviceSchema,
  deviceSearchQuerySchema,
  deviceSearchResultSchema,
  deviceWriteResultSchema,
  updateDeviceInputSchema,
  type AddDeviceInput,
  type Device,
  type DeviceDetails,
  type DeviceFilter,
  type DeviceSearchQuery,
  type DeviceSearchResult,
  type DeviceWriteResult,
  type UpdateDeviceInput,
} from "./schemas/device";
import {
  rpsResultSchema,
  rpsSearchQuerySchema,
  rpsSearchResultSchema,
  setRpsProfileInputSchema,
  type RpsProfile,
  type RpsSearchQuery,
  type RpsSearchResult,
  type SetRpsProfileInput,
} from "./schemas/rps";
import { createTokenEndpoint } from "./token-endpoint";
import type { PropertyHistoryOptions, ServiceCallResult } from "./schemas/history";
import { thingModelSchema, type ThingModel } from "./schemas/tsl";
import { HttpTransport, type HttpMethod } from "./transport";

const USER_AGENT = "pulumi-devplatform-sdk/0.1";

/** Client of the device platform API. Create one per platform and application, and `close()` it. */
export class DevicePlatformClient {
  readonly #options: ResolvedOptions;
  readonly #transport: HttpTransport;
  readonly #executor: RequestExecutor;
  readonly #devicePrefix: string;
  readonly #tokens: TokenManager;

  /** Checks the options (https unless loopback) and prepares the connection pool; sends nothing. */
  constructor(options: DevicePlatformClientOptions) {
    this.#options = resolveOptions(options);
    pinSecret(options.clientSecret);
    const { origin, basePath, timeoutMs, concurrency, requestsPerSecond, retry } = this.#options;
    this.#transport = new HttpTransport({
      origin,
      basePath,
      timeoutMs,
      concurrency,
      requestsPerSecond,
      dispatcher: options.dispatcher,
    });
    // Tokens need the executor and it needs them: the closures below reach `tokens` once both exist.
    const off = options.pacing === false;
    this.#executor = new RequestExecutor({
      baseUrl: this.#options.baseUrl,
      transport: this.#transport,
      tokens: {
        getAccessToken: () => tokens.getAccessToken(),
        invalidate: (token) => tokens.invalidate(token),
      },
      retry: this.#options.retry,
      onEvent: options.onEvent,
      userAgent: USER_AGENT,
      haltWhenQuotaExhausted: this.#options.haltWhenQuotaExhausted,
      quotaHaltShare: this.#options.quotaHaltShare,
      // One pace per client: a client serves one application, whose rate limit every request shares.
      pacer: new AdaptivePacer({ store: options.paceStore, maxPauseMs: retry.retryAfterCapMs, off }),
      onPace: options.onPace,
      rateLimitWaitMs: this.#options.rateLimitWaitMs,
    });
    const tokens = new TokenManager(
      tokenCacheKey(this.#options.baseUrl, this.#options.clientId, options.clientSecret),
      createTokenEndpoint(this.#executor, options.clientId, options.clientSecret),
    );
    this.#tokens = tokens;
    this.#devicePrefix = `/device/openapi/${this.#options.apiVersion}`;
  }

  /**
   * Confirms that the base URL is the platform's and the credentials are accepted, by obtaining an
   * access token (no request when this process already holds a valid one). For operations that
   * otherwise need no request, so that they do not succeed against the wrong server.
   */
  async verifyAccess(): Promise<void> {
    await this.#tokens.getAccessToken();
  }

  /** Add a Device. After an unconfirmed attempt it looks the serial number up before sending again. */
  async addDevice(input: AddDeviceInput): Promise<DeviceWriteResult> {
    const path = `${this.#devicePrefix}/devices`;
    const { config, ...body } = checkInput("POST", path, addDeviceInputSchema, input);
    return this.#executor.execute({
      ...this.#op("POST", path, deviceWriteResultSchema, "unsafe"),
      json: { ...body, ...this.#profileTemplateField(config) },
      resolveAmbiguous: (error) => lookUpAddedDevice((sn) => this.findDeviceBySn(sn), body.snDevEUI, error),
    });
  }

  /**
   * Update a Device Information. PUT replaces name, description and tags with what is given, and
   * changes the project tag in place when `project` is given (`""` clears it).
   */
  async updateDevice(input: UpdateDeviceInput): Promise<DeviceWriteResult> {
    const path = `${this.#devicePrefix}/devices`;
    const body = checkInput("PUT", path, updateDeviceInputSchema, input);
    return this.#executor.execute({
      ...this.#op("PUT", path, deviceWriteResultSchema, "safe"),
      json: { ...body, deviceId: this.#encodeId(body.deviceId) },
    });
  }

  /** Query a Specific Device. Throws `NotFoundError` when the platform does not know the id. */
  async getDevice(deviceId: string): Promise<Device> {
    return this.#executor.execute(this.#op("GET", this.#devicePath(deviceId, "GET"), deviceSchema, "safe"));
  }

  /**
   * Delete a Device. Resolves with the serial number the platform answers (the deleted device's),
   * or undefined when it sends none. With `options.sn`, an answer naming another serial number is a
   * `SerialNumberMismatchError`. A `NotFoundError` means the device is not there — also when an
   * earlier, unconfirmed attempt of this same call deleted it; callers that treat "gone" as done
   * catch it.
   */
  async deleteDevice(deviceId: string, options: DeleteDeviceOptions = {}): Promise<string | undefined> {
    const path = this.#devicePath(deviceId, "DELETE");
    return deleteDeviceOperation(this.#executor, path, deviceId, options.sn, this.#options.baseUrl);
  }

  /** Search Specific Devices: one page (default page 1 of 100 records). */
  async searchDevices(query: DeviceSearchQuery = {}): Promise<DeviceSearchResult> {
    const path = `${this.#devicePrefix}/devices/search`;
    const body = checkInput("POST", path, deviceSearchQuerySchema, query);
    return this.#executor.execute({
      ...this.#op("POST", path, deviceSearchResultSchema, "safe"),
      json: body,
    });
  }

  /** Every device matching `filter`, page by page, as an async iterable. */
  listDevices(filter: DeviceFilter = {}): PageIterator<DeviceDetails> {
    const checked = checkInput("POST", `${this.#devicePrefix}/devices/search`, deviceFilterSchema, filter);
    return new PageIterator((pageNumber, pageSize) =>
      this.searchDevices({ ...checked, pageNumber, pageSize }),
    );
  }

  /** The device with exactly this serial number (or devEUI), or undefined. Search may match partially. */
  async findDeviceBySn(sn: string): Promise<DeviceDetails | undefined> {
    const wanted = sn.toUpperCase();
    for await (const device of this.listDevices({ sn })) {
      if (device.sn?.toUpperCase() === wanted || device.devEUI?.toUpperCase() === wanted) return device;
    }
    return undefined;
  }

  /** Query the TSL Model of a Device. */
  async getThingModel(deviceId: string): Promise<ThingModel> {
    return this.#executor.execute(
      this.#op("GET", this.#devicePath(deviceId, "GET", "/thing-specification"), thingModelSchema, "safe"),
    );
  }

  /**
   * Update Device Properties Incrementally. Returns the properties the platform applied, which may
   * be fewer than were sent. Repeating is safe: the values are absolute.
   */
  async updateProperties(deviceId: string, properties: PropertyValuesInput): Promise<PropertiesResult> {
    const path = this.#devicePath(deviceId, "PATCH", "/properties");
    return this.#executor.execute({
      ...this.#op("PATCH", path, propertiesResultSchema, "safe"),
      json: { properties },
    });
  }

  /**
   * Query the Historical Data of Properties Reports: the device's reports, oldest first as the
   * platform orders them, page by page (`pageKey`) as iteration proceeds. Without `startTime` and
   * `endTime` the platform returns the last three days.
   */
  propertyHistory(deviceId: string, options: PropertyHistoryOptions = {}): PropertyHistory {
    return propertyHistoryOperation(
      this.#executor,
      this.#devicePath(deviceId, "GET", "/properties/history"),
      options,
    );
  }

  /**
   * Invoke Device Services Asynchronously. The inputs are checked against the service's inputs in
   * the device's TSL model first (read once, unless `options.model` gives it), by the same rules as
   * configuration values: an unknown service, an input the service does not have, a value that
   * breaks its rule, or a missing required input is a `ValidationError` and nothing is sent. The
   * call itself is not repeated after an unconfirmed attempt (a device command may act twice).
   */
  async callService(
    deviceId: string,
    serviceId: string,
    inputs: Readonly<Record<string, JsonInput>>,
    options: CallServiceOptions = {},
  ): Promise<ServiceCallResult> {
    const path = this.#devicePath(deviceId, "POST", "/services/call");
    const model = () => (options.model ? Promise.resolve(options.model) : this.getThingModel(deviceId));
    return callServiceOperation(this.#executor, { path, deviceId, model }, serviceId, inputs);
  }

  /** Getting the Configuration of a Specific Device: current values of its writable properties. */
  async getDeviceConfig(deviceId: string): Promise<DeviceConfig> {
    return this.#executor.execute(
      this.#op("GET", this.#devicePath(deviceId, "GET", "/config"), deviceConfigSchema, "safe"),
    );
  }

  /**
   * Create Configuration Tasks, in chunks of at most 500 devices sent one after another; returns the
   * relations of all chunks. A chunk whose outcome is unknown is never re-sent (that could create
   * its tasks twice): the error says so, and what earlier chunks created. `onChunkCreated` hears of
   * each chunk that succeeded, so that a caller knows which devices got tasks if a later one fails.
   */
  async createConfigTasks(
    input: CreateConfigTasksInput,
    options: CreateConfigTasksOptions = {},
  ): Promise<DeviceTaskRelation[]> {
    const path = `${this.#devicePrefix}/tasks`;
    const ids = checkDeviceIds("POST", path, input.deviceIds);
    if (input.type !== "PROFILE" && input.type !== "TSL")
      throw invalidInput("POST", path, "type must be PROFILE or TSL");
    if (typeof input.config !== "object" || input.config === null) {
      throw invalidInput("POST", path, "config must be an object");
    }
    return createTasksInChunks(ids, options, async (chunk, ambiguousNote) => {
      const result = await this.#executor.execute({
        ...this.#op("POST", path, taskCreateResultSchema, "unsafe"),
        json: { type: input.type, deviceIds: chunk.map((id) => this.#encodeId(id)), config: input.config },
        ambiguousNote,
      });
      return result.deviceTaskRelations;
    });
  }

  /** Specify the Profile URL for RPS. Setting the same serial number again replaces it, so it may be retried. */
  async setRpsProfile(input: SetRpsProfileInput): Promise<SetRpsProfileResult> {
    const path = `${this.#devicePrefix}/rps/profile`;
    const body = checkInput("POST", path, setRpsProfileInputSchema, input);
    const result = await this.#executor.execute({
      ...this.#op("POST", path, rpsResultSchema, "safe"),
      json: body,
    });
    return { sn: body.sn, profileUrl: body.profileUrl, result };
  }

  /** Query Profile URL List: one page (default page 1 of 100 records). */
  async searchRpsProfiles(query: RpsSearchQuery = {}): Promise<RpsSearchResult> {
    const path = `${this.#devicePrefix}/rps/search`;
    const body = checkInput("POST", path, rpsSearchQuerySchema, query);
    return this.#executor.execute({ ...this.#op("POST", path, rpsSearchResultSchema, "safe"), json: body });
  }

  /** Every RPS record of the application, page by page, in the order `sorts` asks for (if any). */
  listRpsProfiles(sorts?: RpsSearchQuery["sorts"]): PageIterator<RpsProfile> {
    return new PageIterator((pageNumber, pageSize) =>
      this.searchRpsProfiles({ pageNumber, pageSize, ...(sorts ? { sorts } : {}) }),
    );
  }

  /** Delete RPS Record of a Device. `NotFoundError` when there is none (see `deleteDevice`). */
  async deleteRpsProfile(sn: string): Promise<void> {
    const path = `${this.#devicePrefix}/rps/${encodeURIComponent(sn)}`;
    if (sn.trim() === "") throw invalidInput("DELETE", path, "sn must not be empty");
    await this.#executor.execute(this.#op("DELETE", path, rpsResultSchema, "safe"));
  }

  /** Closes the connection pool. Requests after this fail. */
  async close(): Promise<void> {
    await this.#transport.close();
  }

  /** What `util.inspect` and `console.log` show: where it points, never credentials. */
  [inspect.custom](): string {
    return `DevicePlatformClient { baseUrl: '${this.#options.baseUrl}', clientId: '${this.#options.clientId}' }`;
  }

  /** What `JSON.stringify` shows. */
  toJSON(): Record<string, string> {
    return { baseUrl: this.#options.baseUrl, clientId: this.#options.clientId };
  }

  #op<T>(
    method: HttpMethod,
    path: string,
    schema: z.ZodType<T>,
    repeatability: "safe" | "unsafe",
  ): OperationSpec<T> {
    return { method, path, schema, repeatability, authenticated: true };
  }

  /** The profile template as this API version's Add a Device names it: `config` (v1), `profile` (v1.0). */
  #profileTemplateField(config: unknown): Record<string, unknown> {
    if (config === undefined) return {};
    return this.#options.apiVersion === "v1.0" ? { profile: stringifyLosslessJson(config) } : { config };
  }

  #encodeId(id: string): unknown {
    return this.#options.sendIdsAsNumbers ? rawInteger(id) : id;
  }

  #devicePath(deviceId: string, method: HttpMethod, suffix = ""): string {
    const path = `${this.#devicePrefix}/devices/${encodeURIComponent(String(deviceId))}${suffix}`;
    checkDeviceId(method, path, deviceId);
    return path;
  }
}
