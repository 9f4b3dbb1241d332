/**
 * A plugin DeviceFleet's preview answers its serial numbers as known keys of `devices` and
 * `deviceIds`, each value unknown: the engine gives a stack policy the outputs, and with `devices`
 * unknown as a whole a policy over a fleet's serial numbers was skipped at preview ("can't be known
 * during preview"). A Device's preview is its inputs, as before.
 */
import { describe, expect, it } from "vitest";
import { UNKNOWN } from "../../../provider/shared/input-checks";
import { create, update } from "../../../provider/plugin/server/resources";
import { fromStruct, toStruct } from "../../../provider/plugin/server/properties";
import { providerPb } from "../../../provider/plugin/server/rpc";

const FLEET_URN = "urn:pulumi:dev::p::devplatform:index:DeviceFleet::site-a";
const recorded = {
  fleetName: "site-a",
  devices: { "240000A10001": { name: "a" }, "240000A10002": { name: "b", project: "p" } },
};

describe("a plugin fleet's preview", () => {
  it("answers each serial number as a key of devices and deviceIds, its values unknown", async () => {
    const request = new providerPb.CreateRequest();
    request.setUrn(FLEET_URN);
    request.setType("devplatform:index:DeviceFleet");
    request.setProperties(toStruct(recorded));
    request.setPreview(true);
    const outputs = fromStruct((await create(request)).getProperties()).values;
    expect(outputs.devices).toEqual({
      "240000A10001": { deviceId: UNKNOWN },
      "240000A10002": { deviceId: UNKNOWN },
    });
    expect(outputs.deviceIds).toEqual({ "240000A10001": UNKNOWN, "240000A10002": UNKNOWN });
    expect(outputs.fleetName).toBe("site-a");
  });

  it("answers an update's new serial numbers, not the recorded ones", async () => {
    const request = new providerPb.UpdateRequest();
    request.setUrn(FLEET_URN);
    request.setType("devplatform:index:DeviceFleet");
    request.setOlds(
      toStruct({
        fleetName: "site-a",
        deviceIds: { "240000A10001": "9007199254740993" },
        devices: { "240000A10001": { deviceId: "9007199254740993" } },
        applied: "{}",
      }),
    );
    request.setNews(toStruct(recorded));
    request.setPreview(true);
    const outputs = fromStruct((await update(request)).getProperties()).values;
    expect(Object.keys(outputs.devices as object)).toEqual(["240000A10001", "240000A10002"]);
    expect(outputs.deviceIds).toEqual({ "240000A10001": UNKNOWN, "240000A10002": UNKNOWN });
    expect(outputs.applied).toBe(UNKNOWN);
  });

  it("leaves a Device's preview as its inputs", async () => {
    const request = new providerPb.CreateRequest();
    request.setUrn("urn:pulumi:dev::p::devplatform:index:Device::d");
    request.setType("devplatform:index:Device");
    request.setProperties(toStruct({ sn: "240000A10001", name: "a" }));
    request.setPreview(true);
    expect(fromStruct((await create(request)).getProperties()).values).toEqual({
      sn: "240000A10001",
      name: "a",
    });
  });
});
