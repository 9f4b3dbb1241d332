/**
 * A DeviceFleet's checked entries are recorded under the program's name `devices` (so the engine
 * resolves `devices["SN"].name` in `preview --diff`) and handed back to the implementation as
 * `entries`; other kinds pass through unchanged.
 */
import { describe, expect, it } from "vitest";
import { checkFleetInputs } from "../../../provider/device-fleet/inputs";
import { engineInputs, implementationChecked } from "../../../provider/plugin/server/kinds";

describe("a fleet's recorded inputs", () => {
  it("hold the entries as devices keyed by serial number, and give them back as entries", () => {
    const { inputs } = checkFleetInputs({}, { fleetName: "f", devices: [{ sn: "240000A10001", name: "a" }] });
    const recorded = engineInputs("DeviceFleet", inputs);
    expect(recorded).toEqual({ fleetName: "f", devices: { "240000A10001": { name: "a" } } });
    expect(implementationChecked("DeviceFleet", recorded)).toEqual(inputs);
  });

  it("leave a program's list (an import read's inputs) and other kinds as they are", () => {
    const list = { devices: [{ sn: "240000A10001", name: "a" }] };
    expect(implementationChecked("DeviceFleet", list)).toBe(list);
    const device = { sn: "240000A10001", name: "a", entries: 1 };
    expect(engineInputs("Device", device)).toBe(device);
    expect(implementationChecked("Device", { devices: {} })).toEqual({ devices: {} });
  });
});
