import { describe, expect, it } from "vitest";
import { engineFailures } from "../../../provider/shared/engine-failures";
import { gotInsteadOfString } from "../../../provider/shared/input-checks";

describe("check failures as the engine receives them", () => {
  it("keeps a top-level property, so that the engine prints its value beside the reason", () => {
    const failure = { property: "name", reason: "Device.name must not be empty" };
    expect(engineFailures([failure])).toEqual([failure]);
  });

  it.each(["tags[0]", "properties.alarmThreshold.high", "devices[3].sn", "deviceIds[0]"])(
    "puts %s on no property: the engine would look it up at the top level and print value {<nil>}",
    (property) => {
      const reason = `X.${property} must be a string, got the number 1`;
      expect(engineFailures([{ property, reason }])).toEqual([{ property: "", reason }]);
    },
  );
});

describe("what came where a string belongs", () => {
  it("shows YAML's octal reading of an unquoted serial number and how to quote it", () => {
    expect(gotInsteadOfString(0o123456, 'sn: "…"')).toBe(
      'got the number 42798 (in YAML, quote it: sn: "…"; a number loses its leading zeros, and YAML reads ' +
        "digits starting with 0 as octal: an unquoted 0123456 arrives as 42798)",
    );
  });

  it("says what null is in YAML, and names other types", () => {
    expect(gotInsteadOfString(null, "x")).toMatch(/^got null \(in YAML, .* or ~, is null\)$/);
    expect(gotInsteadOfString(1.5, "x")).toMatch(
      /^got the number 1\.5 \(in YAML, quote it: x; .* as octal\)$/,
    );
    expect(gotInsteadOfString({}, "x")).toBe("got an object");
    expect(gotInsteadOfString([1, 2], "x")).toBe("got a list of 2");
    expect(gotInsteadOfString(false, "x")).toBe("got false");
  });
});
