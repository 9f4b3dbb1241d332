/**
 * `@pulumi/pulumi`'s `log`: how the dynamic front-end's messages reach the engine. Loaded at the
 * first call rather than with this module: loading the SDK costs a second or more.
 */
import type * as Pulumi from "@pulumi/pulumi";
import type { LogSink } from "../output/log";

/** `@pulumi/pulumi`'s `log`, looked up at each call (tests spy on it). */
export function pulumiLog(): typeof Pulumi.log {
  // A plain require of the package by name: resolved as a static import would be.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (require("@pulumi/pulumi") as typeof Pulumi).log;
}

/** Messages to `@pulumi/pulumi`'s log, with status lines as `status` says (see host-status.ts). */
export function pulumiLogSink(status: (message: string) => Promise<void>): LogSink {
  return {
    info: (message) => pulumiLog().info(message),
    warn: (message) => pulumiLog().warn(message),
    status,
  };
}
