import { describe, expect, it } from "vitest";
import { GATEWAY, SENSOR, tslOf, type TslModel } from "../../../emulator";
import { checkProperties } from "../../../emulator/tsl/validate-properties";

const longTsl: TslModel = {
  version: "0",
  events: [],
  services: [],
  properties: [
    {
      id: "counter",
      propertyKey: "counter",
      name: "counter",
      accessMode: "RW",
      dataSpec: { dataType: "LONG" },
    },
  ],
};

describe("TSL property checks", () => {
  it("keeps LONG values beyond 2^53 exact and refuses values beyond 64 bits", () => {
    expect(checkProperties(longTsl, { counter: 9007199254740993n })).toEqual({
      values: { counter: 9007199254740993n },
      problems: [],
    });
    expect(checkProperties(longTsl, { counter: 2n ** 63n }).problems).toEqual([
      "counter: 9223372036854775808 is out of the LONG range",
    ]);
  });

  it("stores ENUM keys as numbers, BOOL strings as booleans and STRUCTs under full child ids", () => {
    const result = checkProperties(tslOf(SENSOR), {
      temperatureUnit: "1",
      ledEnabled: "false",
      alarmThreshold: { high: 1, "alarmThreshold.low": 0 },
    });
    expect(result).toEqual({
      values: {
        temperatureUnit: 1,
        ledEnabled: false,
        alarmThreshold: { "alarmThreshold.high": 1, "alarmThreshold.low": 0 },
      },
      problems: [],
    });
  });

  it("refuses a STRUCT child given twice and INT values beyond 32 bits", () => {
    expect(
      checkProperties(tslOf(SENSOR), { alarmThreshold: { high: 1, "alarmThreshold.high": 2, low: 0 } })
        .problems,
    ).toEqual(["alarmThreshold.high: given twice"]);
    expect(checkProperties(tslOf(GATEWAY), { wanConfig: { mode: 0, mtu: 2 ** 31 } }).problems).toEqual([
      "wanConfig.mtu: 2147483648 is out of the INT range",
    ]);
  });

  it("lets out-of-band changes set read-only properties", () => {
    expect(checkProperties(tslOf(SENSOR), { temperature: 20 }, { ignoreAccessMode: true }).problems).toEqual(
      [],
    );
    expect(checkProperties(tslOf(SENSOR), { temperature: 20 }).problems).toHaveLength(1);
  });
});
