/**
 * Who may write the shared directories (shared-record-paths.ts), on Windows as on the others: mode
 * bits and owners where they mean something; on Windows, where Node reports every writable file as
 * 0o666 and a directory as 0o777, a place inside this user's profile, and nowhere else (fails closed).
 * Windows is given as the platform: the same files, read with another platform's rule.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { verifyDirectory, verifyFile } from "../../../provider/deployment/shared-record-paths";

let root: string;
let profile: string;
let record: string;

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "file-trust-"));
  profile = path.join(root, "Users", "Operator");
  // As Node on Windows reports them: a directory and a file everyone could write, by their bits.
  record = path.join(profile, "AppData", "Local", "Temp", "pulumi-devplatform-owners-operator");
  fs.mkdirSync(record, { recursive: true });
  fs.chmodSync(record, 0o777);
  fs.writeFileSync(path.join(record, "state.json"), "{}");
  fs.chmodSync(path.join(record, "state.json"), 0o666);
});

const file = () => path.join(record, "state.json");

describe("the shared directories' writers", () => {
  it("on Windows: a directory and a file inside this user's profile are trusted, whatever their bits say", () => {
    const windows = { platform: "win32", profile } as const;
    expect(() => verifyDirectory(record, windows)).not.toThrow();
    expect(() => verifyFile(file(), fs.lstatSync(file()), windows)).not.toThrow();
    // Windows compares paths without regard to case.
    expect(() =>
      verifyDirectory(record, { platform: "win32", profile: profile.toUpperCase() }),
    ).not.toThrow();
  });

  it("on Windows: anywhere outside this user's profile cannot be verified, and is refused", () => {
    const elsewhere = { platform: "win32", profile: path.join(root, "Users", "Other") } as const;
    expect(() => verifyDirectory(record, elsewhere)).toThrow(/outside this user's profile/);
    expect(() => verifyFile(file(), fs.lstatSync(file()), elsewhere)).toThrow(/outside this user's profile/);
    // The profile itself, or a name that only begins like it, is not inside it.
    expect(() => verifyDirectory(profile, { platform: "win32", profile })).toThrow(/outside/);
    expect(() => verifyDirectory(record, { platform: "win32", profile: `${profile}-x` })).toThrow(/outside/);
  });

  it("on Windows still refuses a symbolic link and what is not a directory or a regular file", () => {
    const link = path.join(profile, "link");
    fs.symlinkSync(record, link);
    const windows = { platform: "win32", profile } as const;
    expect(() => verifyDirectory(link, windows)).toThrow(/symbolic link/);
    expect(() => verifyDirectory(file(), windows)).toThrow(/not a directory/);
    expect(() => verifyFile(record, fs.lstatSync(record), windows)).toThrow(/not a regular file/);
  });

  it("elsewhere: the same bits are another user's way in, and are refused wherever the directory is", () => {
    const linux = { platform: "linux", profile } as const;
    expect(() => verifyDirectory(record, linux)).toThrow(/writable by others \(mode 777\)/);
    expect(() => verifyFile(file(), fs.lstatSync(file()), linux)).toThrow(/writable by others \(mode 666\)/);
    fs.chmodSync(record, 0o700);
    expect(() => verifyDirectory(record, linux)).not.toThrow();
  });
});
