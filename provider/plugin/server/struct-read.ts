/**
 * Reading a `google.protobuf.Struct` straight from the wire into plain JavaScript values, as
 * google-protobuf's `deserializeBinary` and `toJavaScript` answer them, without a message object per
 * value (see struct-codec.ts).
 */

/** A JSON-like value, as a Struct holds it. */
export type Plain = null | number | string | boolean | Plain[] | { [key: string]: Plain };

/** Reads protobuf's wire format from a buffer, from `pos` on. */
export class Reader {
  pos: number;
  constructor(
    readonly buf: Buffer,
    start: number,
  ) {
    this.pos = start;
  }

  varint(): number {
    let result = 0;
    let shift = 0;
    for (;;) {
      const byte = this.buf[this.pos++];
      if (byte === undefined) throw new Error("truncated protobuf varint");
      // Beyond 2^53 a length or tag is nonsense; the multiplication keeps larger ones exact enough to reject.
      result += (byte & 0x7f) * 2 ** shift;
      if (byte < 0x80) return result;
      shift += 7;
    }
  }

  /** Skips a field of `wireType`. */
  skip(wireType: number): void {
    if (wireType === 0) this.varint();
    else if (wireType === 1) this.pos += 8;
    else if (wireType === 2) {
      const length = this.varint();
      this.pos += length;
    } else if (wireType === 5) this.pos += 4;
    else throw new Error(`unsupported protobuf wire type ${wireType}`);
  }
}

/** The Struct whose fields lie between `r.pos` and `end`, as a plain object. */
export function readStruct(r: Reader, end: number): { [key: string]: Plain } {
  const entries = new Map<string, Plain>();
  while (r.pos < end) {
    const tag = r.varint();
    if (tag !== 0x0a) {
      r.skip(tag & 7);
      continue;
    }
    const entryEnd = r.varint() + r.pos;
    let key = "";
    let value: Plain | undefined;
    while (r.pos < entryEnd) {
      const entryTag = r.varint();
      if (entryTag === 0x0a) {
        const length = r.varint();
        key = r.buf.toString("utf8", r.pos, r.pos + length);
        r.pos += length;
      } else if (entryTag === 0x12) {
        const length = r.varint();
        value = readValue(r, r.pos + length);
      } else r.skip(entryTag & 7);
    }
    // As google-protobuf: a map entry without its value holds a Value of no kind.
    if (value === undefined) throw new Error("Unexpected struct type");
    entries.set(key, value);
  }
  return sortedObject(entries);
}

/**
 * The entries as an object with its keys in sorted order, as google-protobuf's `toJavaScript`
 * answers them (its map sorts its keys), whatever order the engine sent them in: the engine writes
 * a Go map, whose order changes from run to run, and a fleet's plan lists serial numbers in the
 * order of its inputs.
 */
function sortedObject(entries: Map<string, Plain>): { [key: string]: Plain } {
  const object: { [key: string]: Plain } = {};
  for (const key of [...entries.keys()].sort()) {
    const value = entries.get(key) as Plain;
    if (key === "__proto__") Object.defineProperty(object, key, { value, enumerable: true, writable: true });
    else object[key] = value;
  }
  return object;
}

function readValue(r: Reader, end: number): Plain {
  let value: Plain | undefined;
  while (r.pos < end) {
    const tag = r.varint();
    switch (tag) {
      case 0x08: // null_value
        r.varint();
        value = null;
        break;
      case 0x11: // number_value
        value = r.buf.readDoubleLE(r.pos);
        r.pos += 8;
        break;
      case 0x1a: {
        const length = r.varint();
        value = r.buf.toString("utf8", r.pos, r.pos + length);
        r.pos += length;
        break;
      }
      case 0x20: // bool_value
        value = r.varint() !== 0;
        break;
      case 0x2a: {
        const length = r.varint();
        value = readStruct(r, r.pos + length);
        break;
      }
      case 0x32: {
        const listEnd = r.varint() + r.pos;
        const list: Plain[] = [];
        while (r.pos < listEnd) {
          const itemTag = r.varint();
          if (itemTag !== 0x0a) {
            r.skip(itemTag & 7);
            continue;
          }
          const length = r.varint();
          list.push(readValue(r, r.pos + length));
        }
        value = list;
        break;
      }
      default:
        r.skip(tag & 7);
    }
  }
  r.pos = end;
  if (value === undefined) throw new Error("Unexpected struct type");
  return value;
}
