/**
 * What can be checked here of a macOS executable without a Mac: a 64-bit Mach-O of the expected
 * CPU whose code signature (`LC_CODE_SIGNATURE`) holds a SHA-256 CodeDirectory covering every byte
 * before the signature, each page's hash right — what macOS verifies as it pages the executable in
 * (arm64 Macs kill an executable without a valid one). An ad-hoc signature (no certificate) is what
 * Apple's linker and `codesign -s -` write.
 */
import { createHash } from "node:crypto";

const MH_MAGIC_64 = 0xfeedfacf;
const LC_CODE_SIGNATURE = 0x1d;
const CSMAGIC_EMBEDDED_SIGNATURE = 0xfade0cc0;
const CSMAGIC_CODEDIRECTORY = 0xfade0c02;
const CS_HASHTYPE_SHA256 = 2;
const CS_ADHOC = 0x2;

/** Mach-O CPU types by the architecture names of Pulumi's archives. */
export const MACHO_CPU = { amd64: 0x01000007, arm64: 0x0100000c } as const;

/** A verified signature. */
export interface MachoSignature {
  cpu: keyof typeof MACHO_CPU;
  /** Ad hoc: no certificate, as macOS accepts for an executable not downloaded by a browser. */
  adhoc: boolean;
  identifier: string;
  /** Pages hashed (each `pageSize` bytes). */
  pages: number;
  pageSize: number;
}

/** Checks `binary`'s Mach-O header and code signature; throws naming what is wrong. */
export function verifyMachoSignature(binary: Buffer, expected: keyof typeof MACHO_CPU): MachoSignature {
  if (binary.length < 32 || binary.readUInt32LE(0) !== MH_MAGIC_64)
    throw new Error("not a 64-bit Mach-O executable (no thin MH_MAGIC_64 header)");
  const cpuType = binary.readInt32LE(4);
  if (cpuType !== MACHO_CPU[expected])
    throw new Error(`a Mach-O for CPU type 0x${cpuType.toString(16)}, not ${expected}`);
  const commands = binary.readUInt32LE(16);
  let offset = 32;
  let signature: { dataoff: number; datasize: number } | undefined;
  for (let i = 0; i < commands; i++) {
    const cmd = binary.readUInt32LE(offset);
    if (cmd === LC_CODE_SIGNATURE)
      signature = { dataoff: binary.readUInt32LE(offset + 8), datasize: binary.readUInt32LE(offset + 12) };
    offset += binary.readUInt32LE(offset + 4);
  }
  if (signature === undefined) throw new Error("no LC_CODE_SIGNATURE: unsigned (macOS on arm64 refuses it)");
  const { dataoff, datasize } = signature;
  if (dataoff + datasize > binary.length) throw new Error("the code signature runs past the file's end");
  if (binary.readUInt32BE(dataoff) !== CSMAGIC_EMBEDDED_SIGNATURE)
    throw new Error("the code signature is not an embedded-signature SuperBlob");
  const count = binary.readUInt32BE(dataoff + 8);
  for (let i = 0; i < count; i++) {
    const blob = dataoff + binary.readUInt32BE(dataoff + 12 + 8 * i + 4);
    if (binary.readUInt32BE(blob) !== CSMAGIC_CODEDIRECTORY) continue;
    return checkCodeDirectory(binary, blob, dataoff, expected);
  }
  throw new Error("the code signature has no CodeDirectory");
}

function checkCodeDirectory(
  binary: Buffer,
  cd: number,
  dataoff: number,
  cpu: keyof typeof MACHO_CPU,
): MachoSignature {
  const flags = binary.readUInt32BE(cd + 12);
  const hashOffset = binary.readUInt32BE(cd + 16);
  const identOffset = binary.readUInt32BE(cd + 20);
  const codeSlots = binary.readUInt32BE(cd + 28);
  const codeLimit = binary.readUInt32BE(cd + 32);
  const hashSize = binary.readUInt8(cd + 36);
  const hashType = binary.readUInt8(cd + 37);
  const pageSize = 2 ** binary.readUInt8(cd + 39);
  if (hashType !== CS_HASHTYPE_SHA256 || hashSize !== 32)
    throw new Error(`the CodeDirectory hashes with type ${hashType}, not SHA-256`);
  if (codeLimit !== dataoff)
    throw new Error(`the CodeDirectory covers ${codeLimit} bytes, not the ${dataoff} before the signature`);
  if (codeSlots !== Math.ceil(codeLimit / pageSize))
    throw new Error(`the CodeDirectory has ${codeSlots} page hashes for ${codeLimit} bytes`);
  for (let page = 0; page < codeSlots; page++) {
    const start = page * pageSize;
    const actual = createHash("sha256")
      .update(binary.subarray(start, Math.min(start + pageSize, codeLimit)))
      .digest();
    const slot = cd + hashOffset + page * hashSize;
    if (!actual.equals(binary.subarray(slot, slot + hashSize)))
      throw new Error(`page ${page} (bytes ${start}…) does not match its hash in the CodeDirectory`);
  }
  const identEnd = binary.indexOf(0, cd + identOffset);
  return {
    cpu,
    adhoc: (flags & CS_ADHOC) !== 0,
    identifier: binary.toString("utf8", cd + identOffset, identEnd),
    pages: codeSlots,
    pageSize,
  };
}
