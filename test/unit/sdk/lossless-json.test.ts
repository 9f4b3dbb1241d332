import { describe, expect, it } from "vitest";
import { parseLosslessJson, rawInteger, stringifyLosslessJson } from "../../../sdk/lossless-json";

describe("parseLosslessJson", () => {
  it("turns ids into exact strings of digits, whatever their size", () => {
    const parsed = parseLosslessJson(
      '{"deviceId": 9007199254740993, "application": {"applicationId": 42}, "taskId": 18446744073709551615}',
    );
    expect(parsed).toEqual({
      deviceId: "9007199254740993",
      application: { applicationId: "42" },
      taskId: "18446744073709551615",
    });
  });

  it("keeps LONG values beyond 2^53 exact as strings and leaves safe numbers alone", () => {
    const parsed = parseLosslessJson(
      '{"properties": {"counter": 12345678901234567891, "negative": -9223372036854775808, "small": 7, "max": 9007199254740991, "ratio": 1.5, "exp": 1e300, "deep": [9007199254740993]}}',
    );
    expect(parsed).toEqual({
      properties: {
        counter: "12345678901234567891",
        negative: "-9223372036854775808",
        small: 7,
        max: 9007199254740991,
        ratio: 1.5,
        exp: 1e300,
        deep: ["9007199254740993"],
      },
    });
  });

  it("leaves id strings untouched and throws on invalid JSON", () => {
    expect(parseLosslessJson('{"deviceId":"1844674407370955161"}')).toEqual({
      deviceId: "1844674407370955161",
    });
    expect(() => parseLosslessJson("{nope")).toThrow(SyntaxError);
  });
});

describe("stringifyLosslessJson", () => {
  it("sends bigint and raw integers as exact JSON numbers", () => {
    const text = stringifyLosslessJson({
      counter: 12345678901234567891n,
      id: rawInteger("9007199254740993"),
      s: "x",
    });
    expect(text).toBe('{"counter":12345678901234567891,"id":9007199254740993,"s":"x"}');
    expect(parseLosslessJson(text)).toEqual({
      counter: "12345678901234567891",
      id: "9007199254740993",
      s: "x",
    });
  });

  it("refuses a raw integer that is not one", () => {
    expect(() => rawInteger("12abc")).toThrow(TypeError);
  });
});
