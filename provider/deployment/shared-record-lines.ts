/**
 * Reading another provider process's record file (see shared-record.ts) from where the last read
 * stopped: whole lines only, from a file opened without following links and verified as opened.
 */
import * as fs from "node:fs";
import { verifyFile } from "./shared-record-paths";

/** Where a reader of one file is: the offset after the last whole line taken. */
export interface Reader {
  offset: number;
}

/** The whole lines appended since `reader.offset`, and the offset after them (not yet taken). */
export function readNewLines(file: string, reader: Reader): { lines: string[]; next: number } {
  let fd: number;
  try {
    // No link is followed: the directory is verified, and so is each file, as opened.
    fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW);
  } catch (error) {
    // Its process has exited (the deployment is ending): what it published was already applied.
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { lines: [], next: reader.offset };
    throw error;
  }
  try {
    const stat = fs.fstatSync(fd);
    verifyFile(file, stat);
    const size = stat.size;
    if (size <= reader.offset) return { lines: [], next: reader.offset };
    const buffer = Buffer.alloc(size - reader.offset);
    const read = fs.readSync(fd, buffer, 0, buffer.length, reader.offset);
    const text = buffer.subarray(0, read).toString("utf8");
    const complete = text.lastIndexOf("\n") + 1;
    const lines = text
      .slice(0, complete)
      .split("\n")
      .filter((line) => line.length > 0);
    return { lines, next: reader.offset + Buffer.byteLength(text.slice(0, complete)) };
  } finally {
    fs.closeSync(fd);
  }
}
