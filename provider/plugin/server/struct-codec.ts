/**
 * The resource methods' `google.protobuf.Struct` fields read and written straight between the wire
 * and plain JavaScript values. `google-protobuf` makes one message object per value on the way in
 * (`deserializeBinary`, then `toJavaScript`) and on the way out (`fromJavaScript`, then
 * `serializeBinary`): for a DeviceFleet of 10,000 that was 2.3 CPU seconds and most of the garbage
 * of a no-change preview, and 4.9 of a refresh. Here the service's deserializer takes the Struct
 * fields out of the request's bytes, lets `google-protobuf` read the rest, and hands each Struct to
 * the handler as an empty `Struct` whose `toJavaScript()` answers the values already read; the
 * serializer writes a response's lazy Structs (see {@link lazyStruct}) itself after the rest. The
 * same values as `toJavaScript`/`fromJavaScript` give, in the protocol's encoding.
 */
import { structPb, type StructPb } from "./rpc";
import { Reader, readStruct } from "./struct-read";

// ---- writing ----

/** Encoded sizes of the messages of a value, in the order {@link write} meets them. */
type Sizes = number[];

const varintSize = (n: number): number =>
  n < 0x80 ? 1 : n < 0x4000 ? 2 : n < 0x200000 ? 3 : n < 0x10000000 ? 4 : 5;
const delimited = (n: number): number => 1 + varintSize(n) + n;

function valueSize(value: unknown, sizes: Sizes): number {
  if (value === null) return 2;
  switch (typeof value) {
    case "number":
      return 9;
    case "boolean":
      return 2;
    case "string":
      return delimited(Buffer.byteLength(value));
    case "object": {
      const slot = sizes.push(0) - 1;
      let size = 0;
      if (Array.isArray(value)) {
        for (const item of value) size += delimited(valueSize(item, sizes));
      } else {
        for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
          size += delimited(delimited(Buffer.byteLength(key)) + delimited(valueSize(item, sizes)));
        }
      }
      sizes[slot] = size;
      return delimited(size);
    }
    default:
      throw new Error("Unexpected struct type.");
  }
}

class Writer {
  pos = 0;
  next = 0;
  constructor(
    readonly buf: Buffer,
    readonly sizes: Sizes,
  ) {}

  varint(n: number): void {
    while (n >= 0x80) {
      this.buf[this.pos++] = (n & 0x7f) | 0x80;
      n = Math.floor(n / 128);
    }
    this.buf[this.pos++] = n;
  }

  string(text: string): void {
    this.varint(Buffer.byteLength(text));
    this.pos += this.buf.write(text, this.pos, "utf8");
  }

  /** The fields of a Struct (or ListValue): its size was recorded by valueSize. */
  fields(value: object): void {
    if (Array.isArray(value)) {
      for (const item of value) {
        this.buf[this.pos++] = 0x0a;
        this.varint(this.peekSize(item));
        this.value(item);
      }
      return;
    }
    for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
      const keyBytes = Buffer.byteLength(key);
      const itemSize = this.peekSize(item);
      this.buf[this.pos++] = 0x0a;
      this.varint(delimited(keyBytes) + delimited(itemSize));
      this.buf[this.pos++] = 0x0a;
      this.string(key);
      this.buf[this.pos++] = 0x12;
      this.varint(itemSize);
      this.value(item);
    }
  }

  /** The size of the Value message `value` encodes to (its nested size taken from the record). */
  private peekSize(value: unknown): number {
    if (value !== null && typeof value === "object") return delimited(this.sizes[this.next] ?? 0);
    return valueSize(value, []);
  }

  value(value: unknown): void {
    if (value === null) {
      this.buf[this.pos++] = 0x08;
      this.buf[this.pos++] = 0;
      return;
    }
    switch (typeof value) {
      case "number":
        this.buf[this.pos++] = 0x11;
        this.pos = this.buf.writeDoubleLE(value, this.pos);
        return;
      case "boolean":
        this.buf[this.pos++] = 0x20;
        this.buf[this.pos++] = value ? 1 : 0;
        return;
      case "string":
        this.buf[this.pos++] = 0x1a;
        this.string(value);
        return;
      default: {
        this.buf[this.pos++] = Array.isArray(value) ? 0x32 : 0x2a;
        this.varint(this.sizes[this.next++] ?? 0);
        this.fields(value as object);
      }
    }
  }
}

/** A message field `field` (wire type 2) holding the Struct of `object`. */
export function encodeStructField(field: number, object: Record<string, unknown>): Buffer {
  const sizes: Sizes = [];
  valueSize(object, sizes);
  const inner = sizes[0] ?? 0;
  const tag = field * 8 + 2;
  const buf = Buffer.allocUnsafe(varintSize(tag) + varintSize(inner) + inner);
  const w = new Writer(buf, sizes);
  w.varint(tag);
  w.varint(inner);
  w.next = 1;
  w.fields(object);
  if (w.pos !== buf.length) throw new Error(`Struct encoding wrote ${w.pos} of ${buf.length} bytes`);
  return buf;
}

// ---- Structs the handlers see ----

/** The plain values of Structs read or made here. */
const plainOfStruct = new WeakMap<StructPb.Struct, Record<string, unknown>>();

/**
 * A Struct of `values` for a response, without a message object per value: the serializer below
 * writes it from `values`; anything else reading it (`toJavaScript`, or `google-protobuf` writing it
 * inside another message) gets the same values.
 */
export function lazyStruct(values: Record<string, unknown>): StructPb.Struct {
  const struct = new structPb.Struct();
  plainOfStruct.set(struct, values);
  struct.toJavaScript = () => values as ReturnType<StructPb.Struct["toJavaScript"]>;
  let materialized: ReturnType<StructPb.Struct["getFieldsMap"]> | undefined;
  struct.getFieldsMap = () =>
    (materialized ??= structPb.Struct.fromJavaScript(
      values as Parameters<typeof structPb.Struct.fromJavaScript>[0],
    ).getFieldsMap());
  return struct;
}

/** A message of google-protobuf, with the accessors the codec uses by name. */
interface Message {
  serializeBinary(): Uint8Array;
  [accessor: string]: unknown;
}

interface MessageClass {
  deserializeBinary(bytes: Uint8Array): object;
}

/** A method's Struct fields: field number → the message's accessor suffix (`Olds` for getOlds). */
export type StructFields = Readonly<Record<number, string>>;

/** Reads a request, its Struct fields here and the rest with google-protobuf. */
export function requestDeserializer(type: MessageClass, fields: StructFields) {
  return (buf: Buffer): object => {
    const r = new Reader(buf, 0);
    const rest: Buffer[] = [];
    const structs: [string, Record<string, unknown>][] = [];
    let restStart = 0;
    while (r.pos < buf.length) {
      const fieldStart = r.pos;
      const tag = r.varint();
      const accessor = fields[Math.floor(tag / 8)];
      if (accessor === undefined || (tag & 7) !== 2) {
        r.skip(tag & 7);
        continue;
      }
      const end = r.varint() + r.pos;
      rest.push(buf.subarray(restStart, fieldStart));
      structs.push([accessor, readStruct(r, end)]);
      r.pos = end;
      restStart = end;
    }
    rest.push(buf.subarray(restStart));
    const message = type.deserializeBinary(Buffer.concat(rest)) as Message;
    for (const [accessor, values] of structs) {
      const struct = lazyStruct(values);
      (message[`set${accessor}`] as (s: StructPb.Struct) => void).call(message, struct);
    }
    return message;
  };
}

/** Writes a response: its lazy Struct fields here, after the rest as google-protobuf writes it. */
export function responseSerializer(fields: StructFields) {
  return (response: object): Buffer => {
    const message = response as Message;
    const tail: Buffer[] = [];
    for (const [field, accessor] of Object.entries(fields)) {
      const struct = (message[`get${accessor}`] as () => StructPb.Struct | undefined).call(message);
      const values = struct && plainOfStruct.get(struct);
      if (!values) continue;
      (message[`clear${accessor}`] as () => void).call(message);
      tail.push(encodeStructField(Number(field), values));
    }
    return Buffer.concat([Buffer.from(message.serializeBinary()), ...tail]);
  };
}
