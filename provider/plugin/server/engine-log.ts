/**
 * The plugin's log sink: the engine's own `Log` RPC, with the URN of the resource being worked on,
 * so a message lands on that resource's row; `status` lines are ephemeral (the engine replaces
 * them with the next one or the result).
 */
import type { LogSink } from "../../output/log";
import { engineGrpc, enginePb, grpc, type EnginePb } from "./rpc";

type EngineClient = InstanceType<typeof engineGrpc.EngineClient>;

let engineAddress = "";
let client: EngineClient | undefined;

/** Sets the engine's address (from the plugin's arguments, or the engine's Handshake). */
export function setEngineAddress(address: string): void {
  if (address === "" || address === engineAddress) return;
  engineAddress = address;
  client?.close();
  client = undefined;
}

function engine(): EngineClient | undefined {
  if (engineAddress === "") return undefined;
  client ??= new engineGrpc.EngineClient(engineAddress, grpc.credentials.createInsecure());
  return client;
}

function send(severity: number, message: string, urn: string, ephemeral: boolean): Promise<void> {
  const target = engine();
  if (target === undefined) {
    // Without an engine (a plugin started by hand) the messages still reach someone.
    process.stderr.write(`${message}\n`);
    return Promise.resolve();
  }
  const request = new enginePb.LogRequest();
  request.setSeverity(severity as EnginePb.LogSeverity);
  request.setMessage(message);
  request.setUrn(urn);
  request.setEphemeral(ephemeral);
  return new Promise((resolve) => {
    // A message the engine did not take is no reason to fail the operation it describes.
    target.log(request, () => resolve());
  });
}

/** The sink of one request, about the resource `urn` (empty for provider-wide messages). */
export function engineLogSink(urn: string): LogSink {
  return {
    info: (message) => send(enginePb.LogSeverity.INFO, message, urn, false),
    warn: (message) => send(enginePb.LogSeverity.WARNING, message, urn, false),
    status: (message) => send(enginePb.LogSeverity.INFO, message, urn, true),
  };
}
