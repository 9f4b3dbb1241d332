/**
 * Where the implementations' messages go. One implementation per resource kind serves two
 * front-ends: the dynamic provider host, where `@pulumi/pulumi`'s `log` reaches the engine, and the
 * provider plugin, which logs through the engine's own `Log` RPC with the resource's URN. A front-end
 * runs each operation inside {@link withLogSink}, so a message lands on the row of the resource
 * being worked on; outside one, messages go to the default sink the front-end set when it loaded
 * ({@link setDefaultLogSink}: `@pulumi/pulumi`'s log, the plugin's engine log), and to
 * standard error in a process that loaded neither front-end.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { redactText } from "../../sdk/redact";

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

/** Where messages go in a process that loaded no front-end (a script, a test): standard error. */
const standardErrorSink: LogSink = {
  info: async (message) => void process.stderr.write(`${message}\n`),
  warn: async (message) => void process.stderr.write(`warning: ${message}\n`),
  status: async (message) => void process.stderr.write(`${message}\n`),
};

const current = new AsyncLocalStorage<LogSink>();
let defaultSink = standardErrorSink;

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

/**
 * The implementations' log: to the engine, on the row of the resource being worked on. The last
 * boundary before the engine prints and records a line, so every line is redacted here, whole.
 */
export const log: LogSink = {
  info: (message) => sink().info(redactText(message)),
  warn: (message) => sink().warn(redactText(message)),
  status: (message) => sink().status(redactText(message)),
};
