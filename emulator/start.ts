import type { FastifyInstance } from "fastify";
import { createApp } from "./app";
import { EmulatorControl } from "./control/emulator-control";
import type { EmulatorOptions } from "./options";

/** Options of {@link startEmulator}: those of createApp plus where to listen. */
export interface StartOptions extends EmulatorOptions {
  /** TCP port; 0 (default) picks a free one. */
  port?: number;
  /** Interface; default `127.0.0.1`. */
  host?: string;
}

/** A running emulator. */
export interface RunningEmulator {
  /** Base URL, e.g. `http://127.0.0.1:41234` (no trailing slash). */
  url: string;
  /** Client of the control API (which startEmulator enables by default). */
  control: EmulatorControl;
  /** The fastify app, for in-process inspection. */
  app: FastifyInstance;
  /** Stops listening, cancels pending tasks and writes the state file if there is one. */
  stop(): Promise<void>;
}

/** The URL of a host and port, with brackets around IPv6 addresses. */
export function urlOf(host: string, port: number): string {
  return `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
}

/** Starts an emulator on loopback (control API on unless `control: false`). */
export async function startEmulator(options: StartOptions = {}): Promise<RunningEmulator> {
  const { port = 0, host = "127.0.0.1", ...rest } = options;
  const app = createApp({ control: true, ...rest });
  await app.listen({ port, host });
  const address = app.server.address();
  if (address === null || typeof address === "string") throw new Error("emulator is not listening on TCP");
  const url = urlOf(host, address.port);
  let stopped: Promise<void> | undefined;
  return {
    url,
    control: new EmulatorControl(url),
    app,
    stop: () => (stopped ??= app.close()),
  };
}
