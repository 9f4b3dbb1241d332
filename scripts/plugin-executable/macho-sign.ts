/**
 * Signs a 64-bit Mach-O ad hoc, in place of the signature it carries, as Apple's linker signs what
 * it links (`codesign -s -` writes the same kind): one CodeDirectory of SHA-256 page hashes, no
 * certificate, flags adhoc and linker-signed. Needed where a build leaves a stale signature: Bun's
 * cross-compile for darwin-x64 keeps Bun's own Developer ID signature (hardened runtime) over a file
 * it then grew, which macOS would refuse; for darwin-arm64 Bun signs ad hoc itself.
 *
 * The new signature replaces the old one at the file's end (`LC_CODE_SIGNATURE`'s `dataoff`, which
 * stays), sized to what it holds; the load command and `__LINKEDIT` are resized to match before the
 * pages are hashed. macho.ts verifies the result.
 */
import { createHash } from "node:crypto";

const LC_SEGMENT_64 = 0x19;
const LC_CODE_SIGNATURE = 0x1d;
const PAGE_BITS = 12;
const PAGE = 1 << PAGE_BITS;
const CD_HEADER = 88; // CodeDirectory version 0x20400, up to execSegFlags
const CS_ADHOC = 0x2;
const CS_LINKER_SIGNED = 0x20000;
const CS_EXECSEG_MAIN_BINARY = 0x1;

interface Layout {
  /** Where LC_CODE_SIGNATURE's `dataoff` and `datasize` are. */
  signatureCommand: number;
  dataoff: number;
  datasize: number;
  /** Where the `__LINKEDIT` segment command is. */
  linkedit: number;
  textOffset: number;
  textSize: number;
}

function layoutOf(binary: Buffer): Layout {
  if (binary.readUInt32LE(0) !== 0xfeedfacf) throw new Error("not a 64-bit Mach-O executable");
  let offset = 32;
  let signature: { signatureCommand: number; dataoff: number; datasize: number } | undefined;
  let text: { offset: number; size: number } | undefined;
  let linkedit: number | undefined;
  for (let i = 0; i < binary.readUInt32LE(16); i++) {
    const cmd = binary.readUInt32LE(offset);
    if (cmd === LC_CODE_SIGNATURE)
      signature = {
        signatureCommand: offset,
        dataoff: binary.readUInt32LE(offset + 8),
        datasize: binary.readUInt32LE(offset + 12),
      };
    if (cmd === LC_SEGMENT_64 && binary.toString("latin1", offset + 8, offset + 20) === "__LINKEDIT\0\0")
      linkedit = offset;
    if (cmd === LC_SEGMENT_64 && binary.toString("latin1", offset + 8, offset + 15) === "__TEXT\0")
      text = {
        offset: Number(binary.readBigUInt64LE(offset + 40)),
        size: Number(binary.readBigUInt64LE(offset + 48)),
      };
    offset += binary.readUInt32LE(offset + 4);
  }
  if (signature === undefined) throw new Error("no LC_CODE_SIGNATURE to sign into");
  if (text === undefined || linkedit === undefined) throw new Error("no __TEXT or no __LINKEDIT segment");
  if (signature.dataoff + signature.datasize !== binary.length)
    throw new Error("the code signature is not at the file's end");
  return { ...signature, linkedit, textOffset: text.offset, textSize: text.size };
}

/** `binary` signed ad hoc with `identifier` (a new buffer). */
export function signAdHoc(binary: Buffer, identifier: string): Buffer {
  const { signatureCommand, dataoff, linkedit, textOffset, textSize } = layoutOf(binary);
  const pages = Math.ceil(dataoff / PAGE);
  const identOffset = CD_HEADER;
  const hashOffset = identOffset + Buffer.byteLength(identifier) + 1;
  const cdLength = hashOffset + 32 * pages;
  const superLength = 12 + 8 + cdLength;
  const datasize = Math.ceil(superLength / 16) * 16;
  const out = Buffer.alloc(dataoff + datasize);
  binary.copy(out, 0, 0, dataoff);
  // The headers first: they are in the pages hashed below.
  out.writeUInt32LE(datasize, signatureCommand + 12);
  const linkeditOffset = Number(out.readBigUInt64LE(linkedit + 40));
  const linkeditFileSize = dataoff + datasize - linkeditOffset;
  out.writeBigUInt64LE(BigInt(linkeditFileSize), linkedit + 48);
  const vmsize = Number(out.readBigUInt64LE(linkedit + 32));
  if (vmsize < linkeditFileSize)
    out.writeBigUInt64LE(BigInt(Math.ceil(linkeditFileSize / 0x4000) * 0x4000), linkedit + 32);
  out.writeUInt32BE(0xfade0cc0, dataoff); // the SuperBlob
  out.writeUInt32BE(superLength, dataoff + 4);
  out.writeUInt32BE(1, dataoff + 8);
  out.writeUInt32BE(0, dataoff + 12); // the CodeDirectory slot
  out.writeUInt32BE(20, dataoff + 16);
  const cd = dataoff + 20;
  const fields = [
    0xfade0c02,
    cdLength,
    0x20400,
    CS_ADHOC | CS_LINKER_SIGNED,
    hashOffset,
    identOffset,
    0,
    pages,
  ];
  fields.forEach((value, i) => out.writeUInt32BE(value, cd + 4 * i));
  out.writeUInt32BE(dataoff, cd + 32); // codeLimit
  out.writeUInt8(32, cd + 36); // hashSize
  out.writeUInt8(2, cd + 37); // SHA-256
  out.writeUInt8(0, cd + 38); // platform
  out.writeUInt8(PAGE_BITS, cd + 39);
  // spare2, scatterOffset, teamOffset, spare3 and codeLimit64 stay 0.
  out.writeBigUInt64BE(BigInt(textOffset), cd + 64); // execSegBase
  out.writeBigUInt64BE(BigInt(textSize), cd + 72); // execSegLimit
  out.writeBigUInt64BE(BigInt(CS_EXECSEG_MAIN_BINARY), cd + 80); // execSegFlags
  out.write(identifier, cd + identOffset, "utf8");
  for (let page = 0; page < pages; page++) {
    const start = page * PAGE;
    createHash("sha256")
      .update(out.subarray(start, Math.min(start + PAGE, dataoff)))
      .digest()
      .copy(out, cd + hashOffset + 32 * page);
  }
  return out;
}
