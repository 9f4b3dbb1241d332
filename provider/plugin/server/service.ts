/**
 * The `pulumirpc.ResourceProvider` service: each method's handler, run inside a log sink that
 * reaches the engine on the request's resource row, with failures turned into gRPC errors. Methods
 * left out (Construct, Call, Parameterize, GetMapping(s), Attach, List) answer UNIMPLEMENTED, which
 * the engine takes as "not supported".
 */
import { readPackageInfo } from "../../shared/package-info";
import { withLogSink } from "../../output/log";
import { pluginSchema } from "../schema";
import { checkConfig, configure, diffConfig } from "./config";
import { diff } from "./diff";
import { engineLogSink, setEngineAddress } from "./engine-log";
import { toServiceError } from "./errors";
import { invoke } from "./invoke";
import { check, create, read, remove, update } from "./resources";
import { withRequestUrn } from "../../deployment/request-urn";
import { emptyPb, grpc, pluginPb, providerGrpc, providerPb, type GrpcJs, type ProviderPb } from "./rpc";
import { requestDeserializer, responseSerializer, type StructFields } from "./struct-codec";

/** Set by the executable's bundler (scripts/plugin-executable/bundle.ts), which has no package.json beside it. */
declare const DEVPLATFORM_PLUGIN_VERSION: string | undefined;

/** The plugin's version: its package's. */
export const PLUGIN_VERSION =
  typeof DEVPLATFORM_PLUGIN_VERSION === "string"
    ? DEVPLATFORM_PLUGIN_VERSION
    : readPackageInfo(__dirname).version;

/** A unary handler on a promise, inside the log sink of the request's URN. */
function unary<Req, Res>(handler: (request: Req) => Promise<Res>): GrpcJs.handleUnaryCall<Req, Res> {
  return (call, callback) => {
    const request = call.request as Req & { getUrn?: () => string | undefined };
    const urn = typeof request.getUrn === "function" ? (request.getUrn() ?? "") : "";
    withRequestUrn(urn, () => withLogSink(engineLogSink(urn), () => handler(request))).then(
      (response) => callback(null, response),
      (error: unknown) => callback(toServiceError(error)),
    );
  };
}

async function handshake(
  request: ProviderPb.ProviderHandshakeRequest,
): Promise<ProviderPb.ProviderHandshakeResponse> {
  setEngineAddress(request.getEngineAddress());
  const response = new providerPb.ProviderHandshakeResponse();
  // Secrets come wrapped (and go back wrapped); no resource references or output values.
  response.setAcceptSecrets(true);
  response.setAcceptResources(false);
  response.setAcceptOutputs(false);
  return response;
}

async function getPluginInfo(): Promise<InstanceType<typeof pluginPb.PluginInfo>> {
  const info = new pluginPb.PluginInfo();
  info.setVersion(PLUGIN_VERSION);
  return info;
}

async function getSchema(): Promise<ProviderPb.GetSchemaResponse> {
  const response = new providerPb.GetSchemaResponse();
  response.setSchema(JSON.stringify(pluginSchema(PLUGIN_VERSION)));
  return response;
}

async function empty(): Promise<InstanceType<typeof emptyPb.Empty>> {
  return new emptyPb.Empty();
}

async function deleteResource(
  request: ProviderPb.DeleteRequest,
): Promise<InstanceType<typeof emptyPb.Empty>> {
  await remove(request);
  return new emptyPb.Empty();
}

/** The service's implementation, for `grpc.Server.addService`. */
export function resourceProviderService(): GrpcJs.UntypedServiceImplementation {
  return {
    handshake: unary(handshake),
    getPluginInfo: unary(getPluginInfo),
    getSchema: unary(getSchema),
    checkConfig: unary(checkConfig),
    diffConfig: unary(diffConfig),
    configure: unary(configure),
    check: unary(check),
    diff: unary(diff),
    create: unary(create),
    read: unary(read),
    update: unary(update),
    delete: unary(deleteResource),
    invoke: unary(invoke),
    // Every operation is one the engine waits for and records; there is nothing to stop early.
    cancel: unary(empty),
  };
}

/** The Struct fields of the resource methods' requests and responses (provider.proto), read and written by struct-codec.ts. */
const STRUCT_FIELDS: Record<string, [StructFields, StructFields]> = {
  check: [{ 2: "Olds", 3: "News" }, { 1: "Inputs" }],
  diff: [{ 3: "Olds", 4: "News", 6: "OldInputs" }, {}],
  create: [{ 2: "Properties" }, { 2: "Properties" }],
  read: [
    { 3: "Properties", 4: "Inputs" },
    { 2: "Properties", 3: "Inputs" },
  ],
  update: [{ 3: "Olds", 4: "News", 8: "OldInputs" }, { 1: "Properties" }],
  delete: [{ 3: "Properties", 5: "OldInputs" }, {}],
};

/** The service definition, with the resource methods' Structs read and written by struct-codec.ts. */
function serviceDefinition(): GrpcJs.ServiceDefinition {
  const definition: Record<string, GrpcJs.MethodDefinition<object, object>> = {
    ...(providerGrpc.ResourceProviderService as unknown as Record<
      string,
      GrpcJs.MethodDefinition<object, object>
    >),
  };
  for (const [method, [request, response]] of Object.entries(STRUCT_FIELDS)) {
    const original = definition[method];
    if (!original) throw new Error(`the ResourceProvider service has no method ${method}`);
    const types = original as unknown as { requestType: Parameters<typeof requestDeserializer>[0] };
    definition[method] = {
      ...original,
      requestDeserialize: requestDeserializer(types.requestType, request),
      responseSerialize: responseSerializer(response),
    };
  }
  return definition as GrpcJs.ServiceDefinition;
}

/** Starts the server on a free loopback port; resolves with the port. */
export function serve(): Promise<{ port: number; server: GrpcJs.Server }> {
  const server = new grpc.Server({ "grpc.max_receive_message_length": 400 * 1024 * 1024 });
  server.addService(serviceDefinition(), resourceProviderService());
  return new Promise((resolve, reject) => {
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (error, port) =>
      error ? reject(error) : resolve({ port, server }),
    );
  });
}

export { setEngineAddress };
