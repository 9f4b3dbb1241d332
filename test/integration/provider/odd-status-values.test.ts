/**
 * A device whose statuses the platform reports with values the API document does not list (the
 * document itself mentions a misspelled rpsStatus) must not fail a page: a DeviceFleet adopts and
 * refreshes around it, and a Device reads it, keeping the odd values as the platform sent them.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { deviceImplementation } from "../../../provider/device/provider";
import { deviceFleetImplementation as fleet } from "../../../provider/device-fleet/provider";
import { resetOwnership } from "../../../provider/guardrails/ownership";
import type { Inputs } from "../../../provider/shared/input-checks";
import { serialNumbers } from "../../e2e/support/fleet-programs";
import { writesOf } from "../../e2e/support/platform-writes";
import { useConfiguredEmulator } from "./support/configured-emulator";

const env = useConfiguredEmulator();
const ODD = { rpsStatus: "ENABELD", connectStatus: "SLEEP", licenseStatus: "TRIAL", deviceType: "HUB" };

beforeEach(() => resetOwnership());

async function checked(name: string, devices: { sn: string; name: string }[]): Promise<Inputs> {
  const { inputs, failures } = await fleet.check({}, { fleetName: name, devices });
  expect(failures ?? []).toEqual([]);
  return inputs;
}

describe("undocumented status values on the platform", () => {
  it("a DeviceFleet adopts and refreshes a fleet in which one device has them", async () => {
    const devices = serialNumbers(5, "66").map((sn, i) => ({ sn, name: `odd-${i}` }));
    const seeded = await env.emulator.control.seed({ devices });
    const odd = seeded.devices[2];
    if (!odd) throw new Error("seed returned no third device");
    await env.emulator.control.changeDevice(odd.deviceId, { sendAs: ODD });

    await env.emulator.control.resetCounters();
    const created = await fleet.create(await checked("odd", devices));
    expect(writesOf((await env.emulator.control.counters()).byRoute)).toEqual({});
    const ids = created.outs?.deviceIds as Record<string, string>;
    expect(Object.keys(ids)).toHaveLength(5);
    expect(ids[odd.sn]).toBe(odd.deviceId);

    const read = await fleet.read("odd", created.outs ?? {});
    const entries = (read.inputs as Inputs).entries as Record<string, unknown>;
    expect(Object.keys(entries).sort()).toEqual(devices.map((d) => d.sn).sort());
    const info = (read.props as { devices: Record<string, { deviceType?: string }> }).devices;
    expect(info[odd.sn]?.deviceType).toBe("HUB");
  });

  it("a Device reads its device with them, keeping the values as sent", async () => {
    const [sn] = serialNumbers(1, "24") as [string];
    const [seeded] = (await env.emulator.control.seed({ devices: [{ sn, name: "odd-device" }] })).devices;
    if (!seeded) throw new Error("seed returned no device");
    await env.emulator.control.changeDevice(seeded.deviceId, { sendAs: ODD });
    const read = await deviceImplementation.read(seeded.deviceId, { sn, name: "odd-device" });
    expect(read.props).toMatchObject({
      connectStatus: "SLEEP",
      licenseStatus: "TRIAL",
      rpsStatus: "ENABELD",
      deviceType: "HUB",
    });
  });
});
