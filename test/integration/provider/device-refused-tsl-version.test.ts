/**
 * A `tslVersion` the platform does not know (issue #36 item 6), against the emulator: the create
 * adds the device, the PUT that sets the version is refused (400), and the device is deleted
 * again, so nothing is left half-made; the failure names the version, the platform's words and
 * its requestId. Before, the device stayed on the platform, recorded as a partial success.
 */
import { describe, expect, it } from "vitest";
import { dynamicOperations } from "../../../provider/dynamic/implementations";
import { serialNumbers } from "../../e2e/support/fleet-programs";
import { writesOf } from "../../e2e/support/platform-writes";
import { useConfiguredEmulator } from "./support/configured-emulator";

const device = dynamicOperations.Device;
const env = useConfiguredEmulator();

describe("a Device created with a tslVersion its model does not have", () => {
  it("fails, leaving no device on the platform and nothing in state", async () => {
    const [sn] = serialNumbers(1) as [string];
    await env.emulator.control.resetCounters();
    const failure = await device.create({ sn, name: "bad-version", tslVersion: "9.9.9" }).then(
      () => undefined,
      (error: Error) => error,
    );
    expect(failure?.message).toMatch(
      new RegExp(
        `^create Device sn=${sn} failed: .*400.*does not exist.*requestId.*The platform refused tslVersion "9\\.9\\.9" ` +
          "for this device, so the device this create had just added \\(deviceId \\d+\\) was deleted again: nothing " +
          "is left half-made",
      ),
    );
    // Not a partial success: the engine records nothing, and the next up starts afresh.
    expect(failure?.constructor.name).not.toBe("PartialSuccessError");
    expect((await env.emulator.control.state()).devices.filter((d) => d.sn === sn)).toEqual([]);
    expect(writesOf((await env.emulator.control.counters()).byRoute)).toEqual({
      "POST /devices": 1,
      "PUT /devices": 1,
      "DELETE /devices/{deviceId}": 1,
    });
  });
});
