/**
 * One serial number, one resource: the check of a resource declaring a serial number another
 * resource of the deployment declares fails, naming both, before any request to the platform.
 * (Across provider processes — two plugin instances of one application — the e2e
 * `one-serial-one-resource` proves it on the real CLI.) A serial number that moves between two
 * resources in one `up` is not declared twice: the resource it leaves declares its new list.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { deviceImplementation } from "../../../provider/device/provider";
import { deviceFleetImplementation } from "../../../provider/device-fleet/provider";
import { resetOwnership } from "../../../provider/guardrails/ownership";
import { withRequestUrn } from "../../../provider/deployment/request-urn";
import type { Inputs } from "../../../provider/shared/input-checks";
import { serialNumbers } from "../../e2e/support/fleet-programs";
import { useConfiguredEmulator } from "./support/configured-emulator";

const env = useConfiguredEmulator();

beforeEach(() => resetOwnership());

const urn = (type: string, name: string) => `urn:pulumi:dev::fleet::devplatform:index:${type}::${name}`;

function checkFleet(name: string, serials: readonly string[]) {
  const devices = serials.map((sn, i) => ({ sn, name: `${name}-${i}` }));
  return withRequestUrn(urn("DeviceFleet", name), () =>
    deviceFleetImplementation.check({}, { fleetName: name, devices } as Inputs),
  );
}

function checkDevice(name: string, sn: string) {
  return withRequestUrn(urn("Device", name), () => deviceImplementation.check({}, { sn, name }));
}

async function requests(): Promise<number> {
  const { byRoute } = await env.emulator.control.counters();
  return Object.entries(byRoute)
    .filter(([route]) => route !== "POST /oauth/token")
    .reduce((sum, [, n]) => sum + n, 0);
}

describe("a serial number declared by two resources of one deployment", () => {
  it("fails the second fleet's check, naming both fleets and the serial number, before any request", async () => {
    const [a, b, shared] = serialNumbers(3) as [string, string, string];
    expect((await checkFleet("site-a", [a, shared])).failures).toEqual([]);
    // A new fleet's check reads the platform to tell its plan; the failing one does not get there.
    await env.emulator.control.resetCounters();
    const { failures } = await checkFleet("site-b", [b, shared.toLowerCase()]);
    expect(failures).toEqual([
      {
        property: "",
        reason: expect.stringContaining(
          `serial number ${shared.toLowerCase()} is declared by DeviceFleet "site-b" and by DeviceFleet "site-a"`,
        ),
      },
    ]);
    expect(await requests()).toBe(0);
  });

  it("fails a Device that declares a fleet's device, and a fleet that lists a Device's", async () => {
    const [one, two] = serialNumbers(2) as [string, string];
    await checkFleet("site-a", [one]);
    expect((await checkDevice("gw-1", one)).failures).toEqual([
      {
        property: "sn",
        reason: expect.stringContaining(
          `serial number ${one} is declared by Device "gw-1" and by DeviceFleet "site-a"`,
        ),
      },
    ]);
    await checkDevice("gw-2", two);
    expect((await checkFleet("site-b", [two])).failures.map((f) => f.reason)).toEqual([
      expect.stringContaining(
        `serial number ${two} is declared by DeviceFleet "site-b" and by Device "gw-2"`,
      ),
    ]);
  });

  it("fails the second of two Devices", async () => {
    const [sn] = serialNumbers(1) as [string];
    expect((await checkDevice("gw-1", sn)).failures).toEqual([]);
    expect((await checkDevice("gw-2", sn)).failures.map((f) => f.reason)).toEqual([
      expect.stringContaining(`is declared by Device "gw-2" and by Device "gw-1"`),
    ]);
  });

  it("fails the second of two Devices when a check carries no URN (the dynamic host's first), by their inputs", async () => {
    const [sn, again] = serialNumbers(2) as [string, string];
    // The dynamic host reads its first request before the package is loaded: that check has no URN.
    expect((await deviceImplementation.check({}, { sn, name: "one" })).failures).toEqual([]);
    expect((await checkDevice("gw-2", sn)).failures.map((f) => f.reason)).toEqual([
      expect.stringContaining(`is declared by Device "gw-2" and by a Device resource`),
    ]);
    // One Device checked again, once without its URN: the same inputs, not two resources.
    expect((await deviceImplementation.check({}, { sn: again, name: "gw-3" })).failures).toEqual([]);
    expect((await checkDevice("gw-3", again)).failures).toEqual([]);
  });

  it("accepts a resource checked again, and a serial number that moves from a fleet to a Device", async () => {
    const [moved, kept] = serialNumbers(2) as [string, string];
    expect((await checkFleet("site-a", [moved, kept])).failures).toEqual([]);
    expect((await checkFleet("site-a", [moved, kept])).failures).toEqual([]);
    // The Device is checked first, then the fleet without it: each declares it once at the end.
    await checkDevice("gw-1", moved);
    expect((await checkFleet("site-a", [kept])).failures).toEqual([]);
    expect((await checkDevice("gw-1", moved)).failures).toEqual([]);
  });
});
