/**
 * Releases and the stack's removal budget (#49 item 4), against the emulator: with the provider
 * setting `countReleases` true and the budget `maxRemovals` 1, a DeviceFleet with
 * `onRemove: "release"` charges the devices it lets go like deletes — at its check (the preview),
 * and at its delete when the program dropped it (during the `up`) — and over the budget writes
 * nothing. Off (the default), a release is not charged: stack-removal-budget.test.ts.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { deviceFleetImplementation as fleet } from "../../../provider/device-fleet/provider";
import { noteProgramRan, resetOwnership } from "../../../provider/guardrails/ownership";
import { platformClient } from "../../../provider/platform-access/platform-client";
import { resetRemovalBudget } from "../../../provider/guardrails/removal-budget";
import { joinDeployment, resetSharedRecord } from "../../../provider/deployment/shared-record";
import { serialNumbers } from "../../e2e/support/fleet-programs";
import { writesOf } from "../../e2e/support/platform-writes";
import { useConfiguredEmulator } from "./support/configured-emulator";
import { newDeployment } from "./support/pretend-engine";

const env = useConfiguredEmulator({}, { maxRemovals: "1", countReleases: "true" });

beforeAll(() => {
  process.env.DEVPLATFORM_OWNERSHIP_DIR = fs.mkdtempSync(path.join(os.tmpdir(), "release-budget-"));
});

beforeEach(async () => {
  resetOwnership();
  resetRemovalBudget();
  resetSharedRecord();
  joinDeployment(await newDeployment());
  await platformClient();
});

const entries = (serials: readonly string[]) => serials.map((sn, i) => ({ sn, name: `r-${i}` }));

async function deployedReleasing(name: string, serials: readonly string[]) {
  const news = { fleetName: name, devices: entries(serials), onRemove: "release" };
  const { inputs, failures } = await fleet.check({}, news);
  expect(failures).toEqual([]);
  return { inputs, outs: (await fleet.create(inputs)).outs ?? {} };
}

describe("countReleases: a release is charged to the stack's removal budget", () => {
  it("fails the check of a fleet releasing more than the budget, and its update writes nothing", async () => {
    const serials = serialNumbers(2);
    const site = await deployedReleasing("releasing", serials);
    const news = { fleetName: "releasing", devices: [], onRemove: "release" };
    const { inputs, failures } = await fleet.check(site.inputs, news);
    expect(failures).toEqual([
      {
        property: "",
        reason: expect.stringMatching(
          /^this deployment would remove 2 devices, more than the stack's removal budget devplatform:maxRemovals 1: DeviceFleet releasing removes 2 /,
        ) as unknown as string,
      },
    ]);
    await env.emulator.control.resetCounters();
    await expect(fleet.update("releasing", site.outs, inputs)).rejects.toThrow(
      /^update DeviceFleet releasing failed: this deployment would remove 2 devices/,
    );
    expect(writesOf((await env.emulator.control.counters()).byRoute)).toEqual({});
  });

  it("refuses the delete of a dropped releasing fleet over the budget, in an up", async () => {
    const serials = serialNumbers(2);
    const site = await deployedReleasing("dropped", serials);
    // A new deployment whose program no longer declares the fleet.
    resetOwnership();
    resetRemovalBudget();
    noteProgramRan();
    await expect(fleet.delete("dropped", site.outs)).rejects.toThrow(
      /^delete DeviceFleet dropped failed: this deployment would remove 2 devices, .*this delete wrote nothing/,
    );
  });
});
