/**
 * The owner tags on exported devices. A program cannot declare an owner tag (the provider writes
 * it), so the inventory's tags leave it out; what the export says instead is which stacks' tags the
 * devices carry — a stack removed with `pulumi stack rm --force`, or whose backend was lost, still
 * has its tags on the platform — and how the exported project takes those devices over: the first
 * `up` refuses a device another stack's tag names unless the program says so.
 */
import type { ExportedDevice } from "./read-fleet";

/** The stacks whose owner tags the exported devices carry. */
export interface OwnedDevices {
  /** Stack (as its tag names it, e.g. `fleet/dev@k3m7q2za`) → devices carrying its tag, by count. */
  readonly counts: ReadonlyMap<string, number>;
  /** The stacks, in order of first appearance. */
  readonly stacks: readonly string[];
  /** The serial numbers of the devices that carry an owner tag. */
  readonly serials: readonly string[];
}

/** Which stacks' owner tags the exported devices carry. */
export function ownedDevices(devices: readonly ExportedDevice[]): OwnedDevices {
  const counts = new Map<string, number>();
  const serials: string[] = [];
  for (const device of devices) {
    if (device.owner === undefined) continue;
    counts.set(device.owner, (counts.get(device.owner) ?? 0) + 1);
    serials.push(device.entry.sn);
  }
  return { counts, stacks: [...counts.keys()], serials };
}

/** The summary's lines about owner tags: none when no exported device carries one. */
export function ownerLines(counts: ReadonlyMap<string, number>, takeOver: boolean): string[] {
  if (counts.size === 0) return [];
  const total = [...counts.values()].reduce((sum, n) => sum + n, 0);
  const stacks = [...counts].map(([stack, n]) => `${stack} (${n.toLocaleString("en-US")})`).join(", ");
  const names = JSON.stringify([...counts.keys()]);
  return [
    `  ${total.toLocaleString("en-US")} ${total === 1 ? "device carries" : "devices carry"} the owner tag of ` +
      `another stack: ${stacks}; the tags are left out of inventory.csv (the provider writes its own)`,
    takeOver
      ? `  index.ts takes them over (takeOverFrom: ${names}): the first \`pulumi up\` rewrites each one's owner tag ` +
        "to name the new stack (one PUT each)"
      : "  the first `pulumi up` refuses them, writing nothing, while that stack may still manage them: if it is " +
        `gone (\`pulumi stack rm --force\`, a lost backend), export again with --take-over, or give each fleet ` +
        `takeOverFrom: ${names}`,
  ];
}
