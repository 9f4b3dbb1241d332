/**
 * The engine a provider process serves, as the engine itself names it: every provider process it
 * starts (the dynamic provider host, each plugin instance) gets the engine's gRPC address as an
 * argument. That address — never the process's ancestry — identifies the deployment: Pulumi's own
 * launcher runs node under `sh` without `exec`, so the parent process is not the engine.
 */
import * as net from "node:net";

/** The engine's address among a provider process's arguments (`host:port` or `[v6]:port`). */
export function engineAddressIn(argv: readonly string[]): string | undefined {
  return argv.find((arg) => /^[\w.-]+:\d+$/.test(arg) || /^\[[\da-f:]+\]:\d+$/i.test(arg));
}

/** The host and port of an address (`host:port` or `[v6]:port`); undefined when it is neither. */
export function hostAndPort(address: string): { host: string; port: number } | undefined {
  const at = address.lastIndexOf(":");
  const port = Number(address.slice(at + 1));
  if (at <= 0 || !Number.isInteger(port) || port <= 0 || port > 65_535) return undefined;
  return { host: address.slice(0, at).replace(/^\[(.*)\]$/, "$1"), port };
}

/**
 * Whether the engine at `address` is proven gone: a connection to it is refused (nothing listens
 * there any more). Anything short of that proof — a connection made, a timeout, another error —
 * answers false: not seeing the engine is not evidence that it is gone.
 */
export function engineIsGone(address: string, timeoutMs = 2_000): Promise<boolean> {
  const target = hostAndPort(address);
  if (target === undefined) return Promise.resolve(false);
  return new Promise((resolve) => {
    const socket = net.connect(target);
    const finish = (gone: boolean) => {
      socket.destroy();
      resolve(gone);
    };
    socket.setTimeout(timeoutMs, () => finish(false));
    socket.once("connect", () => finish(false));
    socket.once("error", (error: NodeJS.ErrnoException) => finish(error.code === "ECONNREFUSED"));
  });
}
