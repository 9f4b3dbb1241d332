/**
 * `pulumi-devplatform/sdk`: a typed client of the device platform API, usable without Pulumi.
 *
 * @example
 * const client = new DevicePlatformClient({ baseUrl, clientId, clientSecret });
 * const { deviceId } = await client.addDevice({ snDevEUI: "24E124000000A1B2", name: "door" });
 * for await (const device of client.listDevices({ connectStatus: ["OFFLINE"] })) console.log(device.sn);
 * await client.close();
 */
// First, before anything else loads: on an older Node.js, fail at once with a message that says why.
import "./node-version";

export { assertSupportedNode, MINIMUM_NODE_MAJOR } from "./node-version";
export { DevicePlatformClient } from "./client";
export type { CallServiceOptions, DeleteDeviceOptions, SetRpsProfileResult } from "./operation-types";
export { MAX_DEVICES_PER_TASK, type CreateConfigTasksOptions, type TaskChunkFailure } from "./config-tasks";
export type { DevicePlatformClientOptions } from "./options";
export type { OutgoingRequest, QuotaHaltShare, QuotaRefusal } from "./quota-halt";
export { AdaptivePacer, type PaceEvent, type PaceListener, type PacerClock } from "./pacer";
// Every number of the pacing and the state a store keeps (pace-state.ts holds nothing else).
export * from "./pace-state";
export { DEFAULT_RATE_LIMIT_WAIT_MS } from "./options";
export { baseUrlProblem, isLoopbackHost, maskUrl } from "./base-url";
export { unsafeCharacterProblem, type TextKind } from "./text-characters";
export { clearTokenCache } from "./auth";
export {
  AuthenticationError,
  ConfigurationError,
  ConflictError,
  DevicePlatformError,
  NotFoundError,
  QuotaExhaustedError,
  QuotaHaltedError,
  RateLimitError,
  ResponseShapeError,
  SerialNumberMismatchError,
  ServerError,
  TransportError,
  ValidationError,
  type DevicePlatformErrorCode,
  type DevicePlatformErrorInit,
} from "./errors";
export { errorFromResponse, type ResponseErrorContext } from "./classify-response";
export { redactText, redactThenCut } from "./redact";
export { PLATFORM_ERR_CODES, type MissingResource, type PlatformErrCode } from "./platform-err-codes";
export type { RequestEvent, RequestEventListener } from "./events";
export { PageIterator } from "./pagination";
export { PropertyHistory, type HistoryPageFetcher } from "./history-pages";
export * from "./schemas/history";
export { checkServiceCall, type ServiceCallCheck, type TslProblem } from "./tsl/service-inputs";
export {
  parseLosslessJson,
  rawInteger,
  stringifyLosslessJson,
  type JsonInput,
  type JsonValue,
} from "./lossless-json";
export { DEFAULT_RETRY_OPTIONS, backoffDelayMs, parseRetryAfterMs, type RetryOptions } from "./retry";
export {
  envelopeSchema,
  idSchema,
  pageSchema,
  sortSchema,
  type Envelope,
  type Id,
  type Page,
  type Sort,
} from "./schemas/common";
export * from "./schemas/device";
export {
  isKnownValue,
  openEnum,
  unrecognizedValue,
  type OpenEnum,
  type Unrecognized,
} from "./schemas/open-enum";
export * from "./schemas/tsl";
export * from "./schemas/config";
export * from "./schemas/rps";
export { tokenDetailsSchema, type TokenDetails } from "./schemas/token";
export {
  DEFAULT_WEBHOOK_TOLERANCE_SECONDS,
  verifyWebhook,
  verifyWebhookDelivery,
  type VerifiedWebhookDelivery,
  type VerifyWebhookInput,
} from "./webhooks/verify-webhook";
export { WEBHOOK_HEADERS, type WebhookHeaders } from "./webhooks/webhook-headers";
export { WebhookVerificationError, type WebhookVerificationErrorCode } from "./webhooks/webhook-error";
export { computeWebhookSignature, webhookSignatureMatches } from "./webhooks/webhook-signature";
export * from "./webhooks/webhook-events";
