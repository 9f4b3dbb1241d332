/**
 * The stack's removal budget (issue #32 item 4, second half), against the emulator: with
 * `DEVPLATFORM_MAX_REMOVALS` (the fallback of `devplatform:maxRemovals`) at 3, the removals of
 * every fleet and Device of one deployment add up; the check that goes over fails naming each
 * resource that removes, and the updates write nothing. Another provider process's charge counts:
 * a stand-in for that process (a file written as it writes its facts) sits in the deployment's
 * shared record. The budget replaces the default half-rule for fleets without their own cap. It is
 * one per deployment: charges are kept by URN (two fleets named alike under two parents are two)
 * and read from the processes of every application of the deployment.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { deviceImplementation as device } from "../../../provider/device/provider";
import { deviceFleetImplementation as fleet } from "../../../provider/device-fleet/provider";
import { noteProgramRan, resetOwnership } from "../../../provider/guardrails/ownership";
import { platformClient } from "../../../provider/platform-access/platform-client";
import { resetRemovalBudget } from "../../../provider/guardrails/removal-budget";
import {
  applicationKey,
  deploymentDirectory,
  joinDeployment,
  resetSharedRecord,
  type Deployment,
} from "../../../provider/deployment/shared-record";
import type { Inputs } from "../../../provider/shared/input-checks";
import { serialNumbers } from "../../e2e/support/fleet-programs";
import { writesOf } from "../../e2e/support/platform-writes";
import { useConfiguredEmulator } from "./support/configured-emulator";
import { newDeployment } from "./support/pretend-engine";

// Read by the provider's settings when configure() gives no devplatform:maxRemovals.
process.env.DEVPLATFORM_MAX_REMOVALS = "3";
const env = useConfiguredEmulator();
let deployment: Deployment;

beforeAll(() => {
  process.env.DEVPLATFORM_OWNERSHIP_DIR = fs.mkdtempSync(path.join(os.tmpdir(), "budget-owners-"));
});

beforeEach(async () => {
  resetOwnership();
  resetRemovalBudget();
  resetSharedRecord();
  deployment = await newDeployment();
  joinDeployment(deployment);
  await platformClient();
});

const entries = (serials: readonly string[]) => serials.map((sn, i) => ({ sn, name: `d-${i}` }));

async function deployed(name: string, serials: readonly string[]) {
  const { inputs, failures } = await fleet.check({}, { fleetName: name, devices: entries(serials) });
  expect(failures).toEqual([]);
  return { inputs, outs: (await fleet.create(inputs)).outs ?? {} };
}

async function checkRemoving(previous: { inputs: Inputs }, kept: readonly string[], all: readonly string[]) {
  const devices = entries(all).filter((entry) => kept.includes(entry.sn));
  return fleet.check(previous.inputs, { fleetName: previous.inputs.fleetName, devices });
}

describe("the stack's removal budget", () => {
  it("fails the check that goes over, naming every resource that removes; the updates write nothing", async () => {
    const a = serialNumbers(4);
    const b = serialNumbers(4);
    const siteA = await deployed("site-a", a);
    const siteB = await deployed("site-b", b);
    // 2 of 4 is within the default too: the budget is what stops the second.
    const first = await checkRemoving(siteA, a.slice(2), a);
    expect(first.failures).toEqual([]);
    const second = await checkRemoving(siteB, b.slice(2), b);
    expect(second.failures).toEqual([
      {
        property: "",
        reason:
          "this deployment would remove 4 devices, more than the stack's removal budget devplatform:maxRemovals 3: " +
          `DeviceFleet site-a removes 2 (${a[0]}, ${a[1]}); DeviceFleet site-b removes 2 (${b[0]}, ${b[1]}); nothing ` +
          "was written. Check the inventories these resources are read from; if the removals are meant, raise the " +
          "budget for this change (`pulumi config set devplatform:maxRemovals 4`)",
      },
    ]);
    await env.emulator.control.resetCounters();
    await expect(fleet.update("site-b", siteB.outs, second.inputs)).rejects.toThrow(
      /^update DeviceFleet site-b failed: this deployment would remove 4 devices/,
    );
    expect(writesOf((await env.emulator.control.counters()).byRoute)).toEqual({});
  });

  it("does not charge a release unless countReleases is set (the default)", async () => {
    const serials = serialNumbers(4);
    const news = { fleetName: "letting-go", devices: entries(serials), onRemove: "release" };
    const { inputs } = await fleet.check({}, news);
    await fleet.create(inputs);
    const all = await fleet.check(inputs, { ...news, devices: [] });
    expect(all.failures).toEqual([]);
  });

  it("replaces the default half-rule: 3 of 4 devices go when the budget allows 3", async () => {
    const serials = serialNumbers(4);
    const site = await deployed("mostly-gone", serials);
    const { inputs, failures } = await checkRemoving(site, serials.slice(3), serials);
    expect(failures).toEqual([]);
    await env.emulator.control.resetCounters();
    await fleet.update("mostly-gone", site.outs, inputs);
    expect(writesOf((await env.emulator.control.counters()).byRoute)).toEqual({
      "DELETE /devices/{deviceId}": 3,
    });
  });

  it("counts what another provider process of the deployment charged", async () => {
    const standIn = path.join(
      deploymentDirectory(deployment),
      `${applicationKey("demo-client")}.999999.jsonl`,
    );
    const fact = {
      t: "removals",
      resource: "DeviceFleet plugin-site",
      count: 2,
      serials: ["AA0000000001"],
      at: 1,
    };
    fs.writeFileSync(standIn, `${JSON.stringify(fact)}\n`, { mode: 0o600 });
    const serials = serialNumbers(4);
    const site = await deployed("dynamic-site", serials);
    const { failures } = await checkRemoving(site, serials.slice(2), serials);
    expect(failures[0]?.reason).toMatch(
      /^this deployment would remove 4 devices, .*: DeviceFleet dynamic-site removes 2 \(.*\); DeviceFleet plugin-site removes 2 \(AA0000000001, …\); nothing was written/,
    );
  });

  /** A stand-in for another provider process: its file in the deployment's record, with `facts`. */
  function otherProcess(baseUrl: string, clientId: string, pid: number, facts: object[]) {
    const file = path.join(deploymentDirectory(deployment), `${applicationKey(clientId)}.${pid}.jsonl`);
    fs.writeFileSync(file, facts.map((fact) => `${JSON.stringify(fact)}\n`).join(""), { mode: 0o600 });
  }
  const removals = (urn: string, count: number, sn: string) => ({
    t: "removals",
    resource: "DeviceFleet sensors",
    urn,
    count,
    serials: [sn],
    at: 1,
  });

  it("counts two fleets of one label under two parents as two (keyed by URN)", async () => {
    const urn = (parent: string) =>
      `urn:pulumi:dev::p::devplatform:index:Site$devplatform:index:DeviceFleet::${parent}-sensors`;
    otherProcess(env.emulator.url, "demo-client", 999998, [
      removals(urn("north"), 1, "AA0000000001"),
      removals(urn("south"), 1, "AA0000000002"),
    ]);
    const serials = serialNumbers(4);
    const site = await deployed("third", serials);
    const { failures } = await checkRemoving(site, serials.slice(2), serials);
    // 2 + 1 + 1 = 4 over 3; keyed by process and label, the two were one charge (3, passed).
    expect(failures[0]?.reason).toMatch(/^this deployment would remove 4 devices, more than .* 3: /);
  });

  it("is one budget across the deployment's applications", async () => {
    otherProcess("http://127.0.0.1:1/other-application", "other-client", 999997, [
      removals("urn:pulumi:dev::p::devplatform:index:DeviceFleet::elsewhere", 2, "AA0000000003"),
    ]);
    const serials = serialNumbers(4);
    const site = await deployed("here", serials);
    const { failures } = await checkRemoving(site, serials.slice(2), serials);
    expect(failures[0]?.reason).toMatch(
      /^this deployment would remove 4 devices, .*: DeviceFleet here removes 2 \(.*\); DeviceFleet sensors removes 2 \(AA0000000003, …\)/,
    );
  });

  it("charges a Device's replacement at check, and a dropped Device's delete in the up", async () => {
    const serials = serialNumbers(3);
    const site = await deployed("three", serials);
    expect((await checkRemoving(site, serials.slice(2), serials)).failures).toEqual([]);
    const [oldSn, newSn] = serialNumbers(2) as [string, string];
    const replaced = await device.check({ sn: oldSn, name: "x" }, { sn: newSn, name: "x" });
    expect(replaced.failures).toEqual([]);
    const created = await device.create({ sn: serialNumbers(1)[0], name: "dropped" });
    // The device was created by an earlier deployment, as a dropped Device's was.
    resetOwnership();
    noteProgramRan();
    await env.emulator.control.resetCounters();
    await expect(device.delete(created.id, created.outs ?? {})).rejects.toThrow(
      /this deployment would remove 4 devices, more than the stack's removal budget devplatform:maxRemovals 3: Device .* removes 1 .*DeviceFleet three removes 2 .*; this delete wrote nothing/,
    );
    expect(writesOf((await env.emulator.control.counters()).byRoute)).toEqual({});
  });
});
