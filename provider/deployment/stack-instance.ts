/**
 * The stack instance: the part of the owner tag that tells apart two stacks of one project and
 * stack name on two backends (two laptops' file backends, two buckets), which share a platform
 * application. It is derived from the backend that holds the stack's state, so that it is known
 * before a stack's first write and the same after an `up` killed before any state was saved (with
 * `PULUMI_SKIP_CHECKPOINTS` a killed first `up` leaves none): that `up`'s devices are adopted by the
 * next one. The backend is read where the Pulumi CLI reads it: `PULUMI_BACKEND_URL`, else the
 * project's `backend.url` (Pulumi.yaml in the working directory, where the CLI starts plugins),
 * else the backend `pulumi login` made current (the `current` field of
 * `$PULUMI_HOME/credentials.json`, the only field read). The instance is 8 characters of base32 of
 * its SHA-256: a fingerprint, never the address itself.
 *
 * Ownership never depends on the instance staying the same: a device carrying the marker a
 * resource's state recorded is that resource's (see provider/shared/owner-marker.ts), so a stack
 * moved to another backend (or the same one spelled differently) keeps its devices and retags them.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { homedir } from "node:os";
import path from "node:path";

const BASE32 = "abcdefghijklmnopqrstuvwxyz234567";

/** 8 characters of base32 (40 bits) of the SHA-256 of `text`. */
export function instanceOf(text: string): string {
  const digest = createHash("sha256").update(text).digest();
  let bits = 0;
  let value = 0;
  let out = "";
  for (const byte of digest) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5 && out.length < 8) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
    if (out.length === 8) break;
  }
  return out;
}

function readText(file: string): string | undefined {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
}

/** `backend: url: …` of the project file in `dir`, when it sets one. */
function projectBackend(dir: string): string | undefined {
  const text = readText(path.join(dir, "Pulumi.yaml")) ?? readText(path.join(dir, "Pulumi.yml"));
  const match = text?.match(/^backend:[ \t]*\r?\n[ \t]+url:[ \t]*["']?([^"'\s#]+)/m);
  return match?.[1];
}

/** The `current` backend of the CLI's credentials file (its other fields are never read). */
function loggedInBackend(env: NodeJS.ProcessEnv): string | undefined {
  const home = env.PULUMI_HOME ?? path.join(homedir(), ".pulumi");
  const text = readText(path.join(home, "credentials.json"));
  if (text === undefined) return undefined;
  try {
    const current = (JSON.parse(text) as { current?: unknown }).current;
    return typeof current === "string" && current !== "" ? current : undefined;
  } catch {
    return undefined;
  }
}

/** The backend address that holds the current stack's state, or undefined when none can be found. */
export function backendAddress(
  env: NodeJS.ProcessEnv = process.env,
  dir = process.cwd(),
): string | undefined {
  const address = env.PULUMI_BACKEND_URL?.trim() || projectBackend(dir) || loggedInBackend(env);
  return address === undefined ? undefined : address.replace(/\/+$/, "");
}

let cached: { instance: string | undefined } | undefined;

/**
 * The current stack's instance, or undefined when no backend can be found: then devices are
 * written with the marker's earlier form (no instance) and a device carrying this stack's name that
 * this resource did not record is refused, naming the take-over, since it may be a namesake's.
 */
export function stackInstance(): string | undefined {
  cached ??= {
    instance: ((address) => (address === undefined ? undefined : instanceOf(address)))(backendAddress()),
  };
  return cached.instance;
}
