import { describe, expect, it } from "vitest";
import { parseJson, stringifyJson } from "../../../emulator";

describe("lossless JSON", () => {
  it("parses integers beyond 2^53 as bigint and leaves safe numbers alone", () => {
    const parsed = parseJson(
      '{"id": 1735000000000000001, "n": 42, "f": 1.5, "big": 1e300, "s": "9007199254740993"}',
    );
    expect(parsed).toEqual({ id: 1735000000000000001n, n: 42, f: 1.5, big: 1e300, s: "9007199254740993" });
  });

  it("writes bigint back as an exact JSON number", () => {
    expect(stringifyJson({ id: 1735000000000000001n, list: [9007199254740993n] })).toBe(
      '{"id":1735000000000000001,"list":[9007199254740993]}',
    );
  });
});
