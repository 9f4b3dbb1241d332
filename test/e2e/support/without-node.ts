/** A PATH with no Node.js 22 or newer on it, as on a machine that has none (Debian's Node 20 may stay). */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";

/** The major version of the `node` in `dir`, or undefined when there is none. */
export function nodeMajorIn(dir: string): number | undefined {
  const node = path.join(dir, "node");
  if (!existsSync(node)) return undefined;
  return Number(
    execFileSync(node, ["-p", "process.versions.node.split('.')[0]"], { encoding: "utf8" }).trim(),
  );
}

/** `PATH` without any directory that holds Node.js 22 or newer, `first` in front. */
export function pathWithoutNode22(first: string[]): string {
  const rest = (process.env.PATH ?? "").split(path.delimiter).filter((dir) => (nodeMajorIn(dir) ?? 0) < 22);
  return [...first, ...rest].join(path.delimiter);
}
