/**
 * Where the implementations' messages go. One implementation per resource kind serves two
 * front-ends: the dynamic provider host, where `@pulumi/pulumi`'s `log` reaches the engine, and the
 * provider plugin, which logs through the engine's own `Log` RPC with the resource's URN. A front-end
 * runs each operation inside {@link withLogSink}, so a message lands on the row of the resource
 * being worked on; outside one, messages go to the default sink: `@pulumi/pulumi`'s `log`, unless
 * the front-end set another ({@link setDefaultLogSink}).
 *
 * `@pulumi/pulumi` is loaded at the first message that needs it, not with this module: the plugin
 * sets its own default and serves only gRPC, so its executable leaves the whole SDK out (see
 * scripts/plugin-executable/bundle.ts) and starts without loading it.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type * as Pulumi from "@pulumi/pulumi";

/** A destination for one operation's messages. */
export interface LogSink {
  info(message: string): Promise<void>;
  warn(message: string): Promise<void>;
  /**
   * A short-lived progress line (the engine shows it on the resource's row and drops it when the
   * next one or the result arrives): how far a long operation is.
   */
  status(message: string): Promise<void>;
}

/**
 * `@pulumi/pulumi`'s `log`, loaded at the first call rather than with this module: loading the SDK
 * costs a second or more, and a process that never logs through it (the plugin) never pays for it.
 */
export function pulumiLog(): typeof Pulumi.log {
  // A plain require of the package by name: resolved as a static import would be.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (require("@pulumi/pulumi") as typeof Pulumi).log;
}

/**
 * The default sink: `@pulumi/pulumi`'s log, looked up at each call (tests spy on it); status lines
 * ephemeral. The dynamic front-end puts its status lines on the resource's row (dynamic/host-status.ts).
 */
export const pulumiLogSink: LogSink = {
  info: (message) => pulumiLog().info(message),
  warn: (message) => pulumiLog().warn(message),
  status: (message) => pulumiLog().info(message, undefined, undefined, true),
};

const current = new AsyncLocalStorage<LogSink>();
let defaultSink = pulumiLogSink;

/**
 * Where messages go outside any {@link withLogSink}: a front-end that is not Pulumi's dynamic host
 * sets its own. Returns the one it replaces.
 */
export function setDefaultLogSink(sink: LogSink): LogSink {
  const previous = defaultSink;
  defaultSink = sink;
  return previous;
}

/** Runs `operation` with its messages going to `sink`. */
export function withLogSink<T>(sink: LogSink, operation: () => Promise<T>): Promise<T> {
  return current.run(sink, operation);
}

function sink(): LogSink {
  return current.getStore() ?? defaultSink;
}

/** The implementations' log: to the engine, on the row of the resource being worked on. */
export const log: LogSink = {
  info: (message) => sink().info(message),
  warn: (message) => sink().warn(message),
  status: (message) => sink().status(message),
};
