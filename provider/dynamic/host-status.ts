/**
 * Status lines on the resource's row in the dynamic front-end.
 *
 * The dynamic provider host (`@pulumi/pulumi/cmd/dynamic-provider`) gives a provider neither the
 * resource's URN nor a connection to the engine (`pulumi.log` there has no engine address and
 * prints to the host's output, which the engine shows as lines of no resource). Both are at hand,
 * though: the engine's address is the host's argument, and every request the host handles carries
 * the URN, read through the request's getters just before the host calls the provider. So, in that
 * host only, the getters note the URN in the request's async context, and status lines go to the
 * engine's `Log` with it, ephemeral, as a plugin's do. Anywhere else, or should the host's modules
 * not be where they are expected, status lines go to `pulumi.log` as before.
 */
import { createRequire } from "node:module";
import * as path from "node:path";
import { pulumiLog } from "./pulumi-log";
import { currentUrn, enterRequestUrn, setRootUrnSource } from "../deployment/request-urn";
import { deploymentOfThisProcess } from "../deployment/shared-record";

/** What this file needs of the generated gRPC classes (loaded at run time from the host's package). */
interface LogRequest {
  setSeverity(severity: number): void;
  setMessage(message: string): void;
  setUrn(urn: string): void;
  setEphemeral(ephemeral: boolean): void;
}
interface EngineClient {
  log(request: LogRequest, callback: (error: Error | null) => void): void;
  getRootResource(
    request: unknown,
    options: { deadline: number },
    callback: (error: Error | null, response?: { getUrn(): string }) => void,
  ): void;
}
type Request = { getUrn(): string } & Record<string, unknown>;

let engine: { client: EngineClient; request: () => LogRequest; info: number } | undefined;
let installed = false;

/** The host's `@pulumi/pulumi` directory when this process is the dynamic provider host. */
export function hostPackage(): string | undefined {
  const main = require.main?.filename ?? "";
  const suffix = path.join("cmd", "dynamic-provider", "index.js");
  return main.endsWith(suffix) ? main.slice(0, -suffix.length) : undefined;
}

/** Makes the getters the host calls note the request's URN for the provider call that follows. */
function noteUrnsOf(provider: Record<string, { prototype: Request }>): void {
  const getters: [string, string][] = [
    ["CheckRequest", "getOlds"],
    ["DiffRequest", "getOlds"],
    ["CreateRequest", "getProperties"],
    ["ReadRequest", "getProperties"],
    ["UpdateRequest", "getOlds"],
    ["DeleteRequest", "getProperties"],
    // Read again as the provider is called: the first request of a fresh host (a destroy's delete)
    // loads this module after its first getter ran.
    ["DiffRequest", "getId"],
    ["ReadRequest", "getId"],
    ["UpdateRequest", "getId"],
    ["DeleteRequest", "getId"],
  ];
  for (const [name, getter] of getters) {
    const prototype = provider[name]?.prototype;
    const original = prototype?.[getter];
    if (!prototype || typeof original !== "function") continue;
    prototype[getter] = function (this: Request, ...args: unknown[]): unknown {
      enterRequestUrn(this.getUrn());
      return (original as (...a: unknown[]) => unknown).apply(this, args);
    };
  }
}

/**
 * The deployment's root resource URN, asked of the engine once (the program registers its Stack
 * before any resource, so every provider call comes after it). Undefined when the engine does not
 * answer within 5 s: a call without a URN then has no stack, as outside a deployment.
 */
function rootUrnOf(client: EngineClient, request: () => unknown): () => Promise<string | undefined> {
  let asked: Promise<string | undefined> | undefined;
  return () =>
    (asked ??= new Promise((resolve) => {
      client.getRootResource(request(), { deadline: Date.now() + 5_000 }, (error, response) => {
        const urn = error ? undefined : response?.getUrn();
        resolve(urn === "" ? undefined : urn);
      });
    }));
}

/** Connects to the engine and hooks the host's requests, once, when this is the dynamic host. */
function install(): void {
  if (installed) return;
  installed = true;
  const root = hostPackage();
  const address = deploymentOfThisProcess()?.engineAddress;
  if (root === undefined || address === undefined) return;
  try {
    // The host's own copies of the gRPC modules: the classes its requests are instances of.
    const hostRequire = createRequire(path.join(root, "package.json"));
    const load = (file: string): unknown => hostRequire(`./${file}`) as unknown;
    const grpc = hostRequire("@grpc/grpc-js") as { credentials: { createInsecure(): unknown } };
    const engineRpc = load("proto/engine_grpc_pb.js") as {
      EngineClient: new (address: string, credentials: unknown) => EngineClient;
    };
    const engineProto = load("proto/engine_pb.js") as {
      LogRequest: new () => LogRequest;
      LogSeverity: { INFO: number };
      GetRootResourceRequest: new () => unknown;
    };
    noteUrnsOf(load("proto/provider_pb.js") as Record<string, { prototype: Request }>);
    const client = new engineRpc.EngineClient(address, grpc.credentials.createInsecure());
    engine = { client, request: () => new engineProto.LogRequest(), info: engineProto.LogSeverity.INFO };
    setRootUrnSource(rootUrnOf(client, () => new engineProto.GetRootResourceRequest()));
  } catch {
    // Not the host's layout: status lines go to pulumi.log (no row) instead.
    engine = undefined;
  }
}

/** The dynamic front-end's status line: on the resource's row when the host allows it. */
export function dynamicStatus(message: string): Promise<void> {
  install();
  const urn = currentUrn();
  if (engine === undefined || urn === undefined) return pulumiLog().info(message, undefined, undefined, true);
  const { client, request, info } = engine;
  const req = request();
  req.setSeverity(info);
  req.setMessage(message);
  req.setUrn(urn);
  req.setEphemeral(true);
  return new Promise((resolve) => client.log(req, () => resolve()));
}

/** Hooks the host's requests now, so that the first provider call already has its URN. */
export function prepareDynamicStatus(): void {
  install();
}
