/**
 * An RPS batch's record checks (provider/rps-fleet/inputs.ts): a record whose URL an earlier record
 * of the list already passed skips the URL's check, never the rest — a bad serial number, another
 * property or a bad URL still fails, with the message a record checked whole gets.
 */
import { describe, expect, it } from "vitest";
import { checkRpsFleetInputs } from "../../../provider/rps-fleet/inputs";

const URL_A = "https://rps.example.com/a";

function reasons(records: unknown[]): string[] {
  return checkRpsFleetInputs({ fleetName: "b", records: JSON.stringify(records) }).failures.map(
    (f) => f.reason,
  );
}

describe("an RPS batch's records", () => {
  it("fail on the serial number, another property or the URL after a record passed the same URL", () => {
    expect(
      reasons([
        { sn: "24E100000001", profileUrl: URL_A },
        { sn: "12", profileUrl: URL_A },
        { sn: "24E100000003", profileUrl: URL_A, name: "x" },
        { sn: "24E100000004 ", profileUrl: URL_A },
        { sn: "24E100000005", profileUrl: "http://rps.example.com/a" },
        { sn: "24e100000006", profileUrl: URL_A },
      ]),
    ).toEqual([
      'RpsFleet.records[1].sn (sn 12) must be 12 to 16 hex digits, got "12"',
      "RpsFleet.records[2].name (sn 24E100000003) is not a property of an RPS record; expected one of: sn, profileUrl",
      expect.stringMatching(/^RpsFleet\.records\[3\]\.sn \(sn 24E100000004 \) /),
      expect.stringMatching(/^RpsFleet\.records\[4\]\.profileUrl \(sn 24E100000005\) must be an https URL/),
    ]);
  });

  it("keep every record that passed, keyed by serial number", () => {
    const { inputs, failures } = checkRpsFleetInputs({
      fleetName: "b",
      records: JSON.stringify([
        { sn: "24E100000001", profileUrl: URL_A },
        { sn: "24e100000002", profileUrl: URL_A },
      ]),
    });
    expect(failures).toEqual([]);
    expect(inputs.entries).toEqual({ "24E100000001": URL_A, "24e100000002": URL_A });
  });
});
