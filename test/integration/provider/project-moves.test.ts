/**
 * A serial number moving between resources of different projects in one deployment — from the
 * fleet of one project to the fleet of another (the layout `devplatform export` generates), from a
 * fleet to a Device, from a Device to a fleet — ends in the declared project with the same
 * deviceId: the resource that now declares it adopts and retags it with one PUT, the one that no
 * longer declares it leaves it. No DELETE, no add, whichever resource the engine runs first.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { deviceImplementation } from "../../../provider/device/provider";
import { resetOwnership } from "../../../provider/guardrails/ownership";
import type { Inputs } from "../../../provider/shared/input-checks";
import { serialNumbers } from "../../e2e/support/fleet-programs";
import { writesOf } from "../../e2e/support/platform-writes";
import { useConfiguredEmulator } from "./support/configured-emulator";
import { applyFleet, checkFleet, upFleet, type Deployed, type Entry } from "./support/fleet-up";

const env = useConfiguredEmulator();

beforeEach(() => resetOwnership());

function entries(count: number, project: string): Entry[] {
  return serialNumbers(count).map((sn, i) => ({ sn, name: `${project}-${i}`, project }));
}

async function platformOf(sn: string) {
  return (await env.emulator.control.state()).devices.filter((d) => d.sn === sn);
}

/** Runs one deployment's steps and returns its writes by route. */
async function writesDuring(steps: () => Promise<void>): Promise<Record<string, number>> {
  resetOwnership(); // one deployment
  await env.emulator.control.resetCounters();
  await steps();
  return writesOf((await env.emulator.control.counters()).byRoute);
}

const idsOf = (deployed: Deployed) => deployed.outs.deviceIds as Record<string, string>;

describe("between the fleets of two projects, in one up", () => {
  it.each(["the old fleet first", "the new fleet first"])(
    "retags the device with one PUT, no DELETE, no add (%s)",
    async (order) => {
      const [a, b] = [entries(3, "a"), entries(2, "b")];
      const [fleetA, fleetB] = [await upFleet("fleet-a", a), await upFleet("fleet-b", b)];
      const moved = a[0] as Entry;
      const deviceId = idsOf(fleetA)[moved.sn];
      let after: Deployed[] = [];
      const writes = await writesDuring(async () => {
        // The engine checks every resource before it runs their updates.
        const inputsA = await checkFleet("fleet-a", a.slice(1), fleetA);
        const inputsB = await checkFleet("fleet-b", [...b, { ...moved, project: "b" }], fleetB);
        const runA = () => applyFleet("fleet-a", inputsA, fleetA);
        const runB = () => applyFleet("fleet-b", inputsB, fleetB);
        after = order === "the old fleet first" ? [await runA(), await runB()] : [await runB(), await runA()];
      });
      expect(writes).toEqual({ "PUT /devices": 1 });
      expect(await platformOf(moved.sn)).toMatchObject([{ deviceId, project: "b" }]);
      const [newA, newB] = order === "the old fleet first" ? after : [...after].reverse();
      expect(idsOf(newA as Deployed)[moved.sn]).toBeUndefined();
      expect(idsOf(newB as Deployed)[moved.sn]).toBe(deviceId);
    },
  );
});

describe("between a fleet and a Device of another project, in one up", () => {
  it.each(["the fleet first", "the Device first"])(
    "from the fleet to the Device: one PUT, same deviceId, in the Device's project (%s)",
    async (order) => {
      const devices = entries(3, "a");
      const fleet = await upFleet("handover", devices);
      const moved = devices[0] as Entry;
      const deviceId = idsOf(fleet)[moved.sn];
      const declared = { sn: moved.sn, name: moved.name, project: "c" };
      let created: { id: string } = { id: "" };
      const writes = await writesDuring(async () => {
        const { inputs } = await deviceImplementation.check({}, declared);
        const fleetInputs = await checkFleet("handover", devices.slice(1), fleet);
        const runDevice = async () => {
          created = await deviceImplementation.create(inputs);
        };
        const runFleet = async () => void (await applyFleet("handover", fleetInputs, fleet));
        if (order === "the fleet first") await runFleet().then(runDevice);
        else await runDevice().then(runFleet);
      });
      expect(writes).toEqual({ "PUT /devices": 1 });
      expect(created.id).toBe(deviceId);
      expect(await platformOf(moved.sn)).toMatchObject([{ deviceId, project: "c" }]);
    },
  );

  it("from a Device to the fleet: the fleet retags it, the Device's delete leaves it", async () => {
    const [sn] = serialNumbers(1) as [string];
    const device = await deviceImplementation.create({ sn, name: "solo", project: "c" });
    const members = entries(2, "a");
    const fleet = await upFleet("receiver", members);
    const writes = await writesDuring(async () => {
      const fleetInputs = await checkFleet(
        "receiver",
        [...members, { sn, name: "solo", project: "a" }],
        fleet,
      );
      await applyFleet("receiver", fleetInputs, fleet);
      // The engine deletes the resource the program no longer declares at the end.
      await deviceImplementation.delete(device.id, device.outs as Inputs);
    });
    expect(writes).toEqual({ "PUT /devices": 1 });
    expect(await platformOf(sn)).toMatchObject([{ deviceId: device.id, project: "a" }]);
  });
});
