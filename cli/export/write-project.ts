/**
 * Writes a generated project all at once or not at all: every file goes into a temporary directory
 * beside the target, which is then renamed into place. A failure or an interrupt at any point
 * leaves neither a half-written target nor the temporary directory behind.
 */
import { lstatSync, renameSync, rmSync } from "node:fs";
import { mkdir, mkdtemp, open, readdir, rename, rm } from "node:fs/promises";
import { homedir } from "node:os";
import path from "node:path";
import { CommandFailure } from "../errors";

/** What is at the target now: nothing, an empty directory, or one that `--force` replaces. */
export type TargetState = "absent" | "empty" | "replace";

/**
 * `--force` removes the old directory: never one that holds the working directory (the shell would
 * be left in a deleted directory), the home directory or a filesystem root.
 */
function refuseToReplace(out: string): void {
  const inside = (dir: string) => {
    const relative = path.relative(out, dir);
    return relative === "" || (!relative.startsWith("..") && !path.isAbsolute(relative));
  };
  if (path.dirname(out) === out || out === path.resolve(homedir()) || inside(process.cwd())) {
    throw new CommandFailure(
      `${out} is not replaced even with --force: it is a filesystem root or the home directory, or holds the working directory`,
    );
  }
}

/**
 * Checks the target before anything is read from the platform, so that a refusal costs nothing:
 * an existing non-empty directory needs `force`, and anything that is not a directory is refused.
 */
export async function checkTarget(out: string, force: boolean): Promise<TargetState> {
  let isDirectory: boolean;
  try {
    isDirectory = lstatSync(out).isDirectory();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return "absent";
    throw error;
  }
  if (!isDirectory) throw new CommandFailure(`${out} exists and is not a directory; choose another --out`);
  if ((await readdir(out)).length === 0) return "empty";
  if (force) {
    refuseToReplace(out);
    return "replace";
  }
  throw new CommandFailure(
    `${out} exists and is not empty; use --force to replace it, or choose another --out`,
  );
}

async function writeFileDurably(file: string, content: string): Promise<void> {
  const handle = await open(file, "wx");
  try {
    await handle.writeFile(content, "utf8");
    // Flushed before the rename, so a crash cannot leave the renamed directory with empty files.
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** What a failed or interrupted write has to undo. */
interface Undo {
  /** Directories to remove: the temporary one, and parents this write created. */
  remove: string[];
  /** The old target while it is moved aside: put back, never removed, if the write stops. */
  aside?: { from: string; to: string };
}

function undoSync(undo: Undo): void {
  if (undo.aside) renameSync(undo.aside.from, undo.aside.to);
  for (const p of [...undo.remove].reverse()) rmSync(p, { recursive: true, force: true });
}

/** Undoes the write if the process is interrupted; returns a function that stops listening. */
function undoOnSignal(undo: Undo): () => void {
  const handler = (signal: NodeJS.Signals): void => {
    undoSync(undo);
    process.exit(signal === "SIGINT" ? 130 : 143);
  };
  process.once("SIGINT", handler);
  process.once("SIGTERM", handler);
  return () => {
    process.off("SIGINT", handler);
    process.off("SIGTERM", handler);
  };
}

/**
 * Writes `files` (name → content) as the directory `out`. `state` is what {@link checkTarget}
 * found; with `replace`, the old directory is moved aside, the new one renamed into place, and the
 * old one removed — if the second rename fails, the old directory is put back.
 */
export async function writeProjectAtomically(
  out: string,
  files: ReadonlyMap<string, string>,
  state: TargetState,
): Promise<void> {
  const parent = path.dirname(out);
  const undo: Undo = { remove: [] };
  const stopListening = undoOnSignal(undo);
  let aside: string | undefined;
  try {
    // mkdir returns the first directory it had to create: removed again if the export fails.
    const createdParent = await mkdir(parent, { recursive: true });
    if (createdParent !== undefined) undo.remove.push(createdParent);
    const temp = await mkdtemp(path.join(parent, `.${path.basename(out)}.export-`));
    undo.remove.push(temp);
    for (const [name, content] of files) await writeFileDurably(path.join(temp, name), content);
    if (state === "replace") {
      aside = `${temp}.replaced`;
      await rename(out, aside);
      undo.aside = { from: aside, to: out };
    }
    // Over an empty directory, rename replaces it; over one that appeared meanwhile, it fails.
    await rename(temp, out);
    undo.aside = undefined;
    undo.remove = [];
  } catch (error) {
    undoSync(undo);
    const reason = error instanceof Error ? error.message : String(error);
    throw new CommandFailure(`writing ${out} failed, nothing was written: ${reason}`);
  } finally {
    stopListening();
  }
  // The new project is in place; the old one is only removed now, and failing to is not fatal.
  if (aside) await rm(aside, { recursive: true, force: true }).catch(() => undefined);
}
