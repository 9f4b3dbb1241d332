/**
 * Which listening socket serves the engine's address now: what tells one deployment from another
 * at the same address.
 *
 * The engine's gRPC address names a deployment only while its engine lives: ports are reused, and
 * a record that a deployment's processes left behind (the engine ends them with a signal that no
 * exit handler sees) would be taken by the next engine given that port. A listening socket is
 * created for each deployment, and its inode is never another live socket's: the record's
 * directory is keyed by it too, so that a deployment never reads a record that predates it.
 *
 * Read from /proc/net/tcp and tcp6 of this process's network namespace, the namespace the address
 * is reachable in. Where /proc/net cannot be read (macOS, Windows) the listener is unknown, and the
 * record is keyed by the address alone (docs/guides/reliability.md says what holds there).
 */
import * as fs from "node:fs";
import { hostAndPort } from "./engine-address";

/** What /proc/net says listens at an address's port. */
export type Listener =
  | { readonly kind: "found"; readonly identity: string }
  | { readonly kind: "none" }
  | { readonly kind: "unknown" };

/** The socket state /proc/net writes for LISTEN. */
const LISTEN = "0A";

/** Reads a file of /proc/net (tests give their own). */
export type ProcNetReader = (file: string) => string;

const readProcNet: ProcNetReader = (file) => fs.readFileSync(file, "utf8");

/**
 * The inodes of the sockets listening at `address`'s port, in this network namespace, joined in
 * order (an engine listening on IPv4 and IPv6 has two). `none` when /proc/net lists no listener
 * there (the engine is gone); `unknown` when /proc/net cannot be read.
 */
export function listenerAt(address: string, read: ProcNetReader = readProcNet): Listener {
  const target = hostAndPort(address);
  if (target === undefined) return { kind: "unknown" };
  const port = target.port.toString(16).toUpperCase().padStart(4, "0");
  const inodes: string[] = [];
  let readable = false;
  for (const file of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    let text: string;
    try {
      text = read(file);
    } catch {
      continue;
    }
    readable = true;
    for (const line of text.split("\n").slice(1)) {
      const fields = line.trim().split(/\s+/);
      const local = fields[1];
      if (local === undefined || fields[3] !== LISTEN || fields[9] === undefined) continue;
      if (local.slice(local.lastIndexOf(":") + 1).toUpperCase() === port) inodes.push(fields[9]);
    }
  }
  if (!readable) return { kind: "unknown" };
  if (inodes.length === 0) return { kind: "none" };
  return { kind: "found", identity: inodes.sort().join(",") };
}
