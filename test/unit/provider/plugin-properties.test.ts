/**
 * The plugin's property values between the engine's Struct and the implementations' plain values:
 * secrets unwrapped on the way in and wrapped again on the way out (and `clientSecret` always),
 * unknowns passed as the implementations test for them, nested values and ids kept exactly.
 */
import { describe, expect, it } from "vitest";
import {
  fromStruct,
  SECRET_SIGNATURE,
  secret,
  SPECIAL_SIGNATURE_KEY,
  toStruct,
} from "../../../provider/plugin/server/properties";
import { structPb } from "../../../provider/plugin/server/rpc";
import { UNKNOWN } from "../../../provider/shared/input-checks";

/** A Struct as the engine sends it (through the wire format). */
function wire(values: Record<string, unknown>) {
  const struct = structPb.Struct.fromJavaScript(
    values as Parameters<typeof structPb.Struct.fromJavaScript>[0],
  );
  return structPb.Struct.deserializeBinary(struct.serializeBinary());
}

describe("plugin property values", () => {
  it("unwraps secrets at any depth and notes the top-level property that held one", () => {
    const { values, secrets } = fromStruct(
      wire({
        name: secret("sensor"),
        tags: ["a", secret("b")],
        devices: [{ sn: "240000A10001", name: secret("hidden") }],
        description: "plain",
      }),
    );
    expect(values).toEqual({
      name: "sensor",
      tags: ["a", "b"],
      devices: [{ sn: "240000A10001", name: "hidden" }],
      description: "plain",
    });
    expect([...secrets].sort()).toEqual(["devices", "name", "tags"]);
  });

  it("wraps the outputs of secret inputs and clientSecret on the way out, nothing else", () => {
    const struct = toStruct(
      { name: "sensor", deviceId: "1735000000000000001", clientSecret: "s3cret", clientId: "app" },
      new Set(["name"]),
    );
    const out = struct.toJavaScript();
    expect(out).toEqual({
      name: { [SPECIAL_SIGNATURE_KEY]: SECRET_SIGNATURE, value: "sensor" },
      deviceId: "1735000000000000001",
      clientSecret: { [SPECIAL_SIGNATURE_KEY]: SECRET_SIGNATURE, value: "s3cret" },
      clientId: "app",
    });
    // And back: the same plain values, the same secrets.
    const back = fromStruct(wire(out as Record<string, unknown>));
    expect(back.values).toEqual({
      name: "sensor",
      deviceId: "1735000000000000001",
      clientSecret: "s3cret",
      clientId: "app",
    });
    expect([...back.secrets].sort()).toEqual(["clientSecret", "name"]);
  });

  it("passes unknowns through as the implementations' UNKNOWN, and never wraps one", () => {
    const { values } = fromStruct(wire({ name: UNKNOWN, devices: [{ sn: UNKNOWN }] }));
    expect(values).toEqual({ name: UNKNOWN, devices: [{ sn: UNKNOWN }] });
    expect(toStruct({ name: UNKNOWN }, new Set(["name"])).toJavaScript()).toEqual({ name: UNKNOWN });
  });

  it("keeps ids as strings of digits, longer than a double holds, at any depth", () => {
    const ids = { deviceIds: { "240000A10001": "17350000000000000012345" }, deviceId: "9007199254740993" };
    const { values } = fromStruct(toStruct(ids));
    expect(values).toEqual(ids);
  });

  it("keeps nested objects, lists, numbers, booleans and null; drops undefined", () => {
    const given = {
      entries: { "240000A10001": { name: "a", tags: ["x"], project: null } },
      concurrency: 16,
      adoptExisting: false,
      description: undefined,
      list: [1, undefined, "z"],
    };
    expect(fromStruct(wire(toStruct(given).toJavaScript() as Record<string, unknown>)).values).toEqual({
      entries: { "240000A10001": { name: "a", tags: ["x"], project: null } },
      concurrency: 16,
      adoptExisting: false,
      list: [1, null, "z"],
    });
  });

  it("reads an unset Struct (an import's Read) as no properties", () => {
    expect(fromStruct(undefined)).toEqual({ values: {}, secrets: new Set() });
  });
});
