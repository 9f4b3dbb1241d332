/**
 * One owner across the provider processes of one deployment: a move from the dynamic resources to
 * the plugin runs the new resources in one process (here a child process, as the plugin is) and
 * the old resources' deletes in another (this one, as the dynamic provider host). The deletes read
 * the other process's record and keep every device, RPS record and property: no write at all.
 * Another deployment's or another application's record does not count, and a record that cannot
 * be read fails the delete instead of letting it delete.
 */
import type { ChildProcessWithoutNullStreams } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { resetOwnership } from "../../../provider/guardrails/ownership";
import { providerImplementation } from "../../../provider/dynamic/implementations";
import { platformClient } from "../../../provider/platform-access/platform-client";
import { resetPropertyOwnership } from "../../../provider/guardrails/property-ownership";
import { resetRpsOwnership } from "../../../provider/guardrails/rps-ownership";
import type { ResourceKind } from "../../../provider/kinds";
import {
  applicationKey,
  deploymentDirectory,
  joinDeployment,
  resetSharedRecord,
} from "../../../provider/deployment/shared-record";
import type { Inputs } from "../../../provider/shared/input-checks";
import { serialNumbers } from "../../e2e/support/fleet-programs";
import type { OwnerProcessOrder } from "./support/owner-process";
import { useConfiguredEmulator } from "./support/configured-emulator";
import { startProviderProcess } from "./support/provider-process";
import { newDeployment } from "./support/pretend-engine";

const env = useConfiguredEmulator();
const children: ChildProcessWithoutNullStreams[] = [];

function resetRecords(): void {
  resetOwnership();
  resetRpsOwnership();
  resetPropertyOwnership();
  resetSharedRecord();
}

beforeEach(() => {
  process.env.DEVPLATFORM_OWNERSHIP_DIR = fs.mkdtempSync(path.join(os.tmpdir(), "owners-"));
  resetRecords();
});

afterEach(async () => {
  for (const child of children.splice(0)) {
    if (child.exitCode !== null) continue;
    child.stdin.end();
    await new Promise((resolve) => child.once("exit", resolve));
  }
});

/** Starts the other provider process and waits until it has done its resources' work. */
async function otherProcess(order: Omit<OwnerProcessOrder, "baseUrl" | "clientId"> & { clientId?: string }) {
  const full: OwnerProcessOrder = { baseUrl: env.emulator.url, clientId: "demo-client", ...order };
  const { child, result } = await startProviderProcess<{ ids: string[] }>(
    "owner-process.ts",
    "OWNER_PROCESS",
    "OWNER-PROCESS",
    full,
    children,
  );
  return { child, ids: result.ids };
}

async function writes(): Promise<Record<string, number>> {
  const { byRoute } = await env.emulator.control.counters();
  return Object.fromEntries(
    Object.entries(byRoute).filter(
      ([route]) =>
        /^(POST|PUT|PATCH|DELETE) /.test(route) &&
        !route.endsWith("/search") &&
        route !== "POST /oauth/token",
    ),
  );
}

/** Check and create, as the engine does in an `up`. */
async function up(kind: ResourceKind, inputs: Inputs) {
  const implementation = providerImplementation(kind);
  const checked = await implementation.check({}, inputs);
  expect(checked.failures ?? []).toEqual([]);
  return { kind, ...(await implementation.create(checked.inputs)) };
}

/** The demo's four kinds, as the dynamic front-end deployed them in an earlier `up`. */
async function deployedStack() {
  const [deviceSn, a, b, rpsSn] = serialNumbers(4) as [string, string, string, string];
  const device = { sn: deviceSn, name: "gateway" };
  const fleet = {
    fleetName: "site-a",
    devices: [
      { sn: a, name: "a" },
      { sn: b, name: "b" },
    ],
    maxRemovals: 1,
  };
  const rps = { sn: rpsSn.replace(/^24/, "AC"), profileUrl: "https://rps.example.com/p" };
  const created = [await up("Device", device), await up("DeviceFleet", fleet), await up("RpsProfile", rps)];
  const config = {
    deviceIds: [created[0]?.id as string],
    properties: { reportInterval: 900 },
    resetOnDelete: true,
  };
  created.push(await up("DeviceConfig", config));
  const program: { kind: ResourceKind; inputs: Inputs }[] = [
    { kind: "Device", inputs: device },
    { kind: "DeviceFleet", inputs: fleet },
    { kind: "RpsProfile", inputs: rps },
    { kind: "DeviceConfig", inputs: config },
  ];
  return { created, program, deviceSn, rpsSn: rps.sn };
}

/** The old resources' deletes, as the engine runs them at the end of the `up`. */
async function deleteOld(created: { kind: ResourceKind; id: string; outs?: Inputs }[]): Promise<void> {
  for (const { kind, id, outs } of [...created].reverse()) {
    await providerImplementation(kind).delete(id, outs ?? {});
  }
}

describe("a move between two provider processes of one deployment", () => {
  it("keeps every device, RPS record and property: the new process adopts, the old one's deletes write nothing", async () => {
    const before = await deployedStack();
    const devicesBefore = (await env.emulator.control.state()).devices;
    // The next deployment: this process plays the dynamic provider host, the child the plugin.
    resetRecords();
    const deployment = await newDeployment();
    joinDeployment(deployment);
    await env.emulator.control.resetCounters();

    const { child, ids } = await otherProcess({ deployment, resources: before.program });
    expect(ids).toEqual(before.created.map((c) => c.id));
    await deleteOld(before.created);

    const written = await writes();
    console.log(`writes during the move (adoptions and deletes): ${JSON.stringify(written)}`);
    expect(written).toEqual({});
    expect((await env.emulator.control.state()).devices).toEqual(devicesBefore);
    const client = await platformClient();
    expect((await client.getDeviceConfig(before.created[0]?.id as string)).properties.reportInterval).toBe(
      900,
    );
    expect((await env.emulator.control.state()).rpsRecords.filter((r) => r.sn === before.rpsSn)).toHaveLength(
      1,
    );

    // The other process removes its file when it exits.
    const directory = deploymentDirectory(deployment);
    const theirs = () =>
      fs.readdirSync(directory).filter((f) => f.endsWith(".jsonl") && !f.endsWith(`.${process.pid}.jsonl`));
    expect(theirs()).toHaveLength(1);
    child.stdin.end();
    await new Promise((resolve) => child.once("exit", resolve));
    children.splice(children.indexOf(child), 1);
    expect(theirs()).toEqual([]);
  });

  it("does not count another deployment's record: the old resources' deletes then delete", async () => {
    const before = await deployedStack();
    resetRecords();
    joinDeployment(await newDeployment());
    await otherProcess({ deployment: await newDeployment(), resources: before.program, checkOnly: true });
    await env.emulator.control.resetCounters();
    await deleteOld(before.created);
    const written = await writes();
    console.log(`writes of the deletes with another deployment's record: ${JSON.stringify(written)}`);
    expect(written["DELETE /devices/{deviceId}"]).toBe(3);
    expect(written["DELETE /rps/{sn}"]).toBe(1);
    expect(written["PATCH /devices/{deviceId}/properties"]).toBe(1);
  });

  it("does not count another application's record in the same deployment", async () => {
    const before = await deployedStack();
    resetRecords();
    const deployment = await newDeployment();
    joinDeployment(deployment);
    // Its check alone declares the serial number (no request: it could not authenticate anyway).
    const devices = before.program.filter((r) => r.kind === "Device");
    await otherProcess({ deployment, resources: devices, checkOnly: true, clientId: "other-client" });
    await env.emulator.control.resetCounters();
    await deleteOld(before.created.filter((c) => c.kind === "Device"));
    expect((await writes())["DELETE /devices/{deviceId}"]).toBe(1);
  });

  it("fails a delete, writing nothing, when the other process's record cannot be read", async () => {
    const before = await deployedStack();
    resetRecords();
    const deployment = await newDeployment();
    joinDeployment(deployment);
    const directory = deploymentDirectory(deployment);
    fs.mkdirSync(directory, { recursive: true });
    const app = applicationKey("demo-client");
    fs.writeFileSync(path.join(directory, `${app}.999999.jsonl`), '{"t":"device-claim"}\n');
    await env.emulator.control.resetCounters();
    for (const created of before.created) {
      const error = await providerImplementation(created.kind)
        .delete(created.id, created.outs ?? {})
        .catch((e: unknown) => e);
      expect((error as Error).message).toMatch(
        /one-owner record .* has a line that is not a record .*nothing was deleted/,
      );
    }
    expect(await writes()).toEqual({});
  });
});
