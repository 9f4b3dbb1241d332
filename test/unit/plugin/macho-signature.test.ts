/**
 * The check the archive build runs on each macOS executable (scripts/plugin-executable/macho.ts):
 * on a small Mach-O written here, signed ad hoc as Apple's linker signs (a SuperBlob holding a
 * SHA-256 CodeDirectory of every 4 KiB page before the signature), it accepts the signature and
 * names the CPU; it refuses one byte changed after signing, a missing signature, another CPU and a
 * file that is not a Mach-O.
 */
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { MACHO_CPU, verifyMachoSignature } from "../../../scripts/plugin-executable/macho";
import { signAdHoc } from "../../../scripts/plugin-executable/macho-sign";

const PAGE = 4096;
const IDENT = "pulumi-resource-devplatform";

/** A 64-bit Mach-O of `pages` pages of code and one LC_CODE_SIGNATURE, signed unless `signed` is false. */
function machO(cpu: number, pages: number, signed = true): Buffer {
  const codeLimit = pages * PAGE;
  const cdHeader = 88;
  const identOffset = cdHeader;
  const hashOffset = identOffset + IDENT.length + 1;
  const cdLength = hashOffset + 32 * pages;
  const superLength = 12 + 8 + cdLength;
  const file = Buffer.alloc(codeLimit + (signed ? superLength : 0));
  // mach_header_64: magic, cputype, cpusubtype, filetype (MH_EXECUTE), ncmds, sizeofcmds, flags
  file.writeUInt32LE(0xfeedfacf, 0);
  file.writeInt32LE(cpu, 4);
  file.writeUInt32LE(2, 12);
  file.writeUInt32LE(signed ? 3 : 0, 16);
  file.writeUInt32LE(signed ? 72 * 2 + 16 : 0, 20);
  for (let i = 32 + 72 * 2 + 16; i < codeLimit; i++) file[i] = (i * 7) & 0xff; // "code"
  if (!signed) return file;
  // segment_command_64 (no sections): __TEXT over the code, __LINKEDIT over the signature
  const segment = (at: number, name: string, fileoff: number, filesize: number) => {
    file.writeUInt32LE(0x19, at);
    file.writeUInt32LE(72, at + 4);
    file.write(name, at + 8, "latin1");
    file.writeBigUInt64LE(BigInt(Math.ceil(filesize / 0x4000) * 0x4000), at + 32);
    file.writeBigUInt64LE(BigInt(fileoff), at + 40);
    file.writeBigUInt64LE(BigInt(filesize), at + 48);
  };
  segment(32, "__TEXT", 0, codeLimit);
  segment(104, "__LINKEDIT", codeLimit, superLength);
  // linkedit_data_command: cmd, cmdsize, dataoff, datasize
  file.writeUInt32LE(0x1d, 176);
  file.writeUInt32LE(16, 180);
  file.writeUInt32LE(codeLimit, 184);
  file.writeUInt32LE(superLength, 188);
  const sig = codeLimit;
  file.writeUInt32BE(0xfade0cc0, sig);
  file.writeUInt32BE(superLength, sig + 4);
  file.writeUInt32BE(1, sig + 8);
  file.writeUInt32BE(0, sig + 12); // CSSLOT_CODEDIRECTORY
  file.writeUInt32BE(20, sig + 16);
  const cd = sig + 20;
  file.writeUInt32BE(0xfade0c02, cd);
  file.writeUInt32BE(cdLength, cd + 4);
  file.writeUInt32BE(0x20400, cd + 8); // version
  file.writeUInt32BE(0x20002, cd + 12); // adhoc | linker-signed
  file.writeUInt32BE(hashOffset, cd + 16);
  file.writeUInt32BE(identOffset, cd + 20);
  file.writeUInt32BE(0, cd + 24); // special slots
  file.writeUInt32BE(pages, cd + 28);
  file.writeUInt32BE(codeLimit, cd + 32);
  file.writeUInt8(32, cd + 36);
  file.writeUInt8(2, cd + 37); // SHA-256
  file.writeUInt8(12, cd + 39); // 4 KiB pages
  file.write(IDENT, cd + identOffset, "utf8");
  for (let page = 0; page < pages; page++) {
    const hash = createHash("sha256")
      .update(file.subarray(page * PAGE, (page + 1) * PAGE))
      .digest();
    hash.copy(file, cd + hashOffset + 32 * page);
  }
  return file;
}

describe("a macOS executable's ad-hoc signature, checked on Linux", () => {
  it("accepts a signature whose every page hash matches, and names the CPU and the identifier", () => {
    expect(verifyMachoSignature(machO(MACHO_CPU.arm64, 3), "arm64")).toEqual({
      cpu: "arm64",
      adhoc: true,
      identifier: IDENT,
      pages: 3,
      pageSize: PAGE,
    });
    expect(verifyMachoSignature(machO(MACHO_CPU.amd64, 2), "amd64").cpu).toBe("amd64");
  });

  it("refuses a byte changed after signing, as injecting into a signed binary does", () => {
    const file = machO(MACHO_CPU.arm64, 3);
    file[PAGE + 10] = (file[PAGE + 10] ?? 0) ^ 1;
    expect(() => verifyMachoSignature(file, "arm64")).toThrow(/page 1 .* does not match its hash/);
  });

  it("refuses an unsigned executable, another CPU's, and a file that is no Mach-O", () => {
    expect(() => verifyMachoSignature(machO(MACHO_CPU.arm64, 2, false), "arm64")).toThrow(
      /no LC_CODE_SIGNATURE/,
    );
    expect(() => verifyMachoSignature(machO(MACHO_CPU.amd64, 2), "arm64")).toThrow(/CPU type 0x1000007/);
    expect(() => verifyMachoSignature(Buffer.from("\x7fELF............................"), "arm64")).toThrow(
      /not a 64-bit Mach-O/,
    );
  });

  it("re-signs ad hoc an executable whose signature went stale, growing the signature with the file", () => {
    const file = machO(MACHO_CPU.amd64, 3);
    file[PAGE * 2 + 5] = (file[PAGE * 2 + 5] ?? 0) ^ 1;
    expect(() => verifyMachoSignature(file, "amd64")).toThrow(/page 2/);
    const signed = signAdHoc(file, "pulumi-resource-devplatform");
    expect(verifyMachoSignature(signed, "amd64")).toMatchObject({ adhoc: true, pages: 3 });
    expect(signed.subarray(192, 3 * PAGE).equals(file.subarray(192, 3 * PAGE))).toBe(true); // the code is kept
    expect(signed.length % 16).toBe(0);
  });
});
