import { describe, expect, it } from "vitest";
import { deviceOutputs } from "../../../provider/device/outputs";
import { deviceSchema } from "../../../sdk/schemas/device";

describe("a Device's outputs keep what the platform sent", () => {
  const output = (rpsStatus: string) =>
    deviceOutputs(deviceSchema.parse({ deviceId: "1", sn: "240000A10001", rpsStatus })).rpsStatus;

  it("spells a search's RPS status as the single-device query does", () => {
    expect(output("ENABLED")).toBe("ACTIVATE");
    expect(output("DISABLED")).toBe("UNACTIVATED");
  });

  it("outputs autopStatus as the platform sent it, an undocumented value too", () => {
    const autop = (autopStatus: string) =>
      deviceOutputs(deviceSchema.parse({ deviceId: "1", sn: "240000A10001", autopStatus })).autopStatus;
    expect(autop("SUCCESS")).toBe("SUCCESS");
    expect(autop("WAITING")).toBe("WAITING");
    expect(autop("DISABLE")).toBe("DISABLE");
    expect(autop("PAUSED")).toBe("PAUSED");
    expect(deviceOutputs(deviceSchema.parse({ deviceId: "1" }))).not.toHaveProperty("autopStatus");
  });

  it("keeps an undocumented value as sent, even one named like an object's own member", () => {
    expect(output("ENABLEDD")).toBe("ENABLEDD");
    expect(output("toString")).toBe("toString");
    expect(output("constructor")).toBe("constructor");
  });
});
