/**
 * One property of one device has one owner at preview (issue #36 item 7), against the emulator:
 * two DeviceConfigs of one deployment setting `reportInterval` of one device to 900 and 1,200 —
 * the second's check fails naming both resources and both values, before any write. Before, both
 * passed, one PATCH won, and the other's state said a value the device did not have.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { deviceConfigImplementation as config } from "../../../provider/device-config/provider";
import { resetPropertyOwnership } from "../../../provider/guardrails/property-ownership";
import { withRequestUrn } from "../../../provider/deployment/request-urn";
import { serialNumbers } from "../../e2e/support/fleet-programs";
import { writesOf } from "../../e2e/support/platform-writes";
import { useConfiguredEmulator } from "./support/configured-emulator";

const env = useConfiguredEmulator();
const urn = (name: string) => `urn:pulumi:dev::site::pulumi-nodejs:dynamic/devplatform:DeviceConfig::${name}`;

beforeEach(() => resetPropertyOwnership());

async function seeded(): Promise<string> {
  const [sn] = serialNumbers(1) as [string];
  return (await env.emulator.control.seedDevice({ sn, name: "one-owner" })).deviceId;
}

describe("two DeviceConfigs setting one property of one device", () => {
  it("fail the second check, naming both and both values, with no write", async () => {
    const id = await seeded();
    await env.emulator.control.resetCounters();
    const first = await withRequestUrn(urn("office-interval"), () =>
      config.check({}, { deviceIds: [id], properties: { reportInterval: 900 } }),
    );
    expect(first.failures).toEqual([]);
    const second = await withRequestUrn(urn("site-interval"), () =>
      config.check({}, { deviceIds: [id], properties: { reportInterval: 1200, ledEnabled: true } }),
    );
    expect(second.failures).toEqual([
      {
        property: "properties.reportInterval",
        reason:
          `DeviceConfig.properties.reportInterval: DeviceConfig "site-interval" sets reportInterval of device ${id} to ` +
          `1200, and DeviceConfig "office-interval" sets it to 900 in this deployment; one property of one device ` +
          "has one owner. Set it in one of them (the platform would keep whichever write came last)",
      },
    ]);
    expect(writesOf((await env.emulator.control.counters()).byRoute)).toEqual({});
  });

  it("are fine on different properties, and a resource checked again keeps its own", async () => {
    const id = await seeded();
    const check = (name: string, properties: Record<string, unknown>) =>
      withRequestUrn(urn(name), () => config.check({}, { deviceIds: [id], properties }));
    expect((await check("interval", { reportInterval: 900 })).failures).toEqual([]);
    expect((await check("led", { ledEnabled: true })).failures).toEqual([]);
    expect((await check("interval", { reportInterval: 600 })).failures).toEqual([]);
  });
});
