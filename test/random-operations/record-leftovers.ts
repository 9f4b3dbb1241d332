/**
 * One-owner records left behind at every ephemeral port, as provider processes ended by SIGKILL
 * leave them: the circumstance under which a deployment that takes a record predating it (its
 * engine given a port an earlier engine had) skips a delete — a claim on a device it removes says
 * "another resource manages it" — and holds `maxRemovals` for a command that ran no program.
 *
 * Planted before every {@link LEFTOVER_EVERY}th step (by index, so a replayed or extended sequence
 * plants at the same steps and the sampled steps stay those of their seed), keyed as a record keyed
 * by the engine's address alone would be: a deployment must never read them. The stacks' record
 * root is the harness's own (`stacks.ts`), never the user's.
 */
import { linkSync, mkdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { applicationKey, deploymentDirectory } from "../../provider/deployment/shared-record-paths";

/** A step whose index is a multiple of this (from 1) runs with leftovers planted. */
export const LEFTOVER_EVERY = 5;

/** Whether step `index` runs with leftovers planted. */
export function plantsLeftovers(index: number): boolean {
  return index % LEFTOVER_EVERY === LEFTOVER_EVERY - 1;
}

/** The machine's ephemeral port range (where the engine's listener gets its port). */
function ephemeralPorts(): [number, number] {
  try {
    const [low, high] = readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/);
    return [Number(low), Number(high)];
  } catch {
    return [32768, 60999];
  }
}

/**
 * Plants, under `root`, a record for every ephemeral port of loopback: in the application of
 * `baseUrl` and `clientId`, a claim on each device of `ids` (sn → deviceId) by "another" Device and
 * the program having run. Returns how many directories it planted.
 */
export function plantLeftovers(
  root: string,
  baseUrl: string,
  clientId: string,
  ids: ReadonlyMap<string, string>,
): number {
  const facts = [
    ...[...ids].map(([sn, deviceId]) => ({ t: "device-claim", deviceId, sn, owner: { kind: "Device" } })),
    { t: "program-ran" },
  ];
  const text = facts.map((fact) => `${JSON.stringify(fact)}\n`).join("");
  const file = `${applicationKey(clientId)}.424242.jsonl`;
  const saved = process.env.DEVPLATFORM_OWNERSHIP_DIR;
  process.env.DEVPLATFORM_OWNERSHIP_DIR = root;
  try {
    mkdirSync(root, { recursive: true, mode: 0o700 });
    // One file, linked into every directory: 28,000 writes would cost the step seconds more.
    const original = path.join(root, `leftover-${process.pid}.jsonl`);
    writeFileSync(original, text, { mode: 0o600 });
    const [low, high] = ephemeralPorts();
    const netns = readlinkSync("/proc/self/ns/net");
    for (let port = low; port <= high; port += 1) {
      const engineAddress = `127.0.0.1:${port}`;
      const directory = deploymentDirectory({ engineAddress });
      mkdirSync(directory, { recursive: true, mode: 0o700 });
      rmSync(path.join(directory, file), { force: true });
      linkSync(original, path.join(directory, file));
      // Described as its processes described it: a later deployment sweeps it once proven over.
      writeFileSync(path.join(directory, "deployment.json"), JSON.stringify({ engineAddress, netns }));
    }
    rmSync(original);
    return high - low + 1;
  } finally {
    if (saved === undefined) delete process.env.DEVPLATFORM_OWNERSHIP_DIR;
    else process.env.DEVPLATFORM_OWNERSHIP_DIR = saved;
  }
}
