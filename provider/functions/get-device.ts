/** `devplatform:index:getDevice`: one device of the application, by deviceId or by serial number. */
import { NotFoundError } from "../../sdk";
import { platformClient } from "../platform-access/platform-client";
import { describeFailure, ResourceOperationError } from "../shared/errors";
import { SERIAL_NUMBER, type Inputs } from "../shared/input-checks";
import { string } from "../core/schema-spec";
import { ArgumentChecker } from "./arguments";
import { DEVICE_INFO_PROPERTIES, deviceInfoOf } from "./device-info";
import type { PackageFunction } from "./package-function";
import { withExamples } from "../core/schema-examples";
import { GET_DEVICE_EXAMPLES } from "./examples";

const NAME = "getDevice";

function checkArgs(args: Inputs): { deviceId?: string; sn?: string } {
  const checker = new ArgumentChecker(NAME, args, ["deviceId", "sn"])
    .string("deviceId", { pattern: /^\d+$/, patternRule: "must be a deviceId, a string of digits" })
    .string("sn", { pattern: SERIAL_NUMBER, patternRule: "must be 12 to 16 hex digits" });
  const given = ["deviceId", "sn"].filter((key) => args[key] !== undefined && args[key] !== null);
  if (given.length !== 1)
    checker.fail("deviceId", `or sn is required: give exactly one of them (got ${given.length})`);
  checker.done();
  return args as { deviceId?: string; sn?: string };
}

/** The getDevice function. */
export const getDevice: PackageFunction = {
  spec: {
    description: withExamples(
      "One device of the application, by `deviceId` (Query a Specific Device) or by serial number (`sn`, found by " +
        "Search Specific Devices, compared without regard to case). Give exactly one; a device that is not there " +
        "fails the call, naming it.",
      GET_DEVICE_EXAMPLES,
    ),
    inputs: {
      properties: {
        deviceId: string("The device's id: a string of digits."),
        sn: string("The device's serial number (or EUI): 12–16 hex digits."),
      },
    },
    outputs: { properties: DEVICE_INFO_PROPERTIES, required: ["deviceId"] },
  },

  async invoke(args) {
    const { deviceId, sn } = checkArgs(args);
    const what = deviceId !== undefined ? `deviceId=${deviceId}` : `sn=${sn}`;
    return describeFailure(`${NAME} ${what}`, async () => {
      const client = await platformClient();
      if (sn !== undefined) {
        const found = await client.findDeviceBySn(sn);
        if (!found) throw new ResourceOperationError(`${NAME}: no device with sn ${sn} in this application`);
        return deviceInfoOf(found);
      }
      try {
        return deviceInfoOf(await client.getDevice(deviceId as string));
      } catch (error) {
        if (error instanceof NotFoundError) {
          const message = `${NAME}: no device with deviceId ${deviceId} in this application (${error.message})`;
          throw new ResourceOperationError(message, { cause: error, code: error.code });
        }
        throw error;
      }
    });
  },
};
