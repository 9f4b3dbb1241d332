/**
 * A spent daily quota stops every provider process of a deployment, against the emulator: one
 * process here (as the dynamic provider host) and one child process (as a plugin instance) of the
 * same deployment, each with its own platform client. Whichever of them the platform refuses, the
 * other sends nothing more — not even a token request — and its resources fail with the refused
 * request's words and requestId. Another deployment's refusal stops nothing.
 */
import type { ChildProcessWithoutNullStreams } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DEFAULT_APPLICATION_ID } from "../../../emulator";
import { deviceImplementation as device } from "../../../provider/device/provider";
import { rpsProfileImplementation as rps } from "../../../provider/rps-profile/provider";
import { resetOwnership } from "../../../provider/guardrails/ownership";
import { platformClient, startNewDeployment } from "../../../provider/platform-access/platform-client";
import { resetPropertyOwnership } from "../../../provider/guardrails/property-ownership";
import { resetRpsOwnership } from "../../../provider/guardrails/rps-ownership";
import type { ResourceKind } from "../../../provider/kinds";
import {
  joinDeployment,
  resetSharedRecord,
  type Deployment,
} from "../../../provider/deployment/shared-record";
import type { Inputs } from "../../../provider/shared/input-checks";
import { serialNumbers } from "../../e2e/support/fleet-programs";
import type { QuotaProcessOrder, QuotaProcessOutcome } from "./support/quota-process";
import { useConfiguredEmulator } from "./support/configured-emulator";
import { startProviderProcess } from "./support/provider-process";
import { newDeployment } from "./support/pretend-engine";

const env = useConfiguredEmulator({ dailyQuota: 1_000 });
const children: ChildProcessWithoutNullStreams[] = [];
const SPENT = "stopped: the plan's daily request quota is spent: ";

/** This process joins `deployment` afresh, as a new provider process of it would start. */
async function serve(deployment: Deployment): Promise<void> {
  await startNewDeployment();
  resetOwnership();
  resetRpsOwnership();
  resetPropertyOwnership();
  resetSharedRecord();
  joinDeployment(deployment);
  await platformClient(); // joins the application's record, as the first resource's check would
}

beforeEach(async () => {
  process.env.DEVPLATFORM_OWNERSHIP_DIR = fs.mkdtempSync(path.join(os.tmpdir(), "quota-owners-"));
  await env.emulator.control.reset({ keepTokens: true });
});

afterEach(async () => {
  for (const child of children.splice(0)) {
    if (child.exitCode !== null) continue;
    child.stdin.end();
    await new Promise((resolve) => child.once("exit", resolve));
  }
});

/** Runs the other provider process until it has created (or failed) its resources. */
async function otherProcess(
  deployment: Deployment,
  resources: { kind: ResourceKind; inputs: Inputs }[],
): Promise<QuotaProcessOutcome[]> {
  const order: QuotaProcessOrder = {
    deployment,
    baseUrl: env.emulator.url,
    clientId: "demo-client",
    resources,
  };
  const { result } = await startProviderProcess<QuotaProcessOutcome[]>(
    "quota-process.ts",
    "QUOTA_PROCESS",
    "QUOTA-PROCESS",
    order,
    children,
  );
  return result;
}

function errorOf(outcome: QuotaProcessOutcome | undefined): string {
  expect(outcome).toHaveProperty("error");
  return (outcome as { error: string }).error;
}

async function messageOf(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(Error);
  return (error as Error).message;
}

function requestIdIn(message: string): string {
  const id = /requestId ([0-9a-f]{32})/.exec(message)?.[1];
  expect(id).toBeDefined();
  return id as string;
}

async function refused(): Promise<number | undefined> {
  return (await env.emulator.control.quota()).applications[DEFAULT_APPLICATION_ID]?.refused;
}

const rpsInputs = (sn: string) => ({ sn: sn.replace(/^24/, "AC"), profileUrl: "https://rps.example.com/p" });

describe("a spent daily quota across a deployment's provider processes", () => {
  it("refused in the other process: this one sends nothing more, naming the other's refused request", async () => {
    const deployment = await newDeployment();
    await serve(deployment);
    const [rpsSn, deviceSn] = serialNumbers(2) as [string, string];
    await env.emulator.control.setQuota({ remaining: 0 });

    const [outcome] = await otherProcess(deployment, [{ kind: "RpsProfile", inputs: rpsInputs(rpsSn) }]);
    const theirs = errorOf(outcome);
    expect(theirs).toContain(`${SPENT}the platform refused POST /device/openapi/v1/rps/search`);
    expect(await refused()).toBe(1);

    await env.emulator.control.resetCounters();
    const ours = await messageOf(device.create({ sn: deviceSn, name: "after" }));
    expect(ours).toContain(
      `${SPENT}the platform had refused an earlier request of this deployment (HTTP 429 quota_exhausted: `,
    );
    expect(ours).toContain("so POST /device/openapi/v1/devices/search was not sent");
    expect(requestIdIn(ours)).toBe(requestIdIn(theirs));
    expect((await env.emulator.control.counters()).total).toBe(0);
    expect(await refused()).toBe(1);
  });

  it("refused in this process: the other sends nothing, not even a token request", async () => {
    const deployment = await newDeployment();
    await serve(deployment);
    const [rpsSn, deviceSn] = serialNumbers(2) as [string, string];
    await env.emulator.control.setQuota({ remaining: 0 });
    const ours = await messageOf(rps.create(rpsInputs(rpsSn)));
    expect(ours).toContain(`${SPENT}the platform refused POST /device/openapi/v1/rps/search`);

    await env.emulator.control.resetCounters();
    const outcomes = await otherProcess(deployment, [
      { kind: "Device", inputs: { sn: deviceSn, name: "other" } },
      { kind: "RpsProfile", inputs: rpsInputs(deviceSn) },
    ]);
    expect(outcomes).toHaveLength(2);
    for (const outcome of outcomes) {
      const theirs = errorOf(outcome);
      expect(theirs).toContain(`${SPENT}the platform had refused an earlier request of this deployment`);
      expect(requestIdIn(theirs)).toBe(requestIdIn(ours));
    }
    expect((await env.emulator.control.counters()).total).toBe(0);
    expect(await refused()).toBe(1);
    expect((await env.emulator.control.state()).devices).toEqual([]);
  });

  it("refused in another deployment's process: this deployment still sends (the platform judges)", async () => {
    const [rpsSn, deviceSn] = serialNumbers(2) as [string, string];
    await env.emulator.control.setQuota({ remaining: 0 });
    const [outcome] = await otherProcess(await newDeployment(), [
      { kind: "RpsProfile", inputs: rpsInputs(rpsSn) },
    ]);
    expect(errorOf(outcome)).toContain(`${SPENT}the platform refused`);

    await serve(await newDeployment());
    await env.emulator.control.resetCounters();
    const ours = await messageOf(device.create({ sn: deviceSn, name: "later" }));
    expect(ours).toContain(`${SPENT}the platform refused POST /device/openapi/v1/devices/search`);
    expect((await env.emulator.control.counters()).byRoute["POST /devices/search"]).toBe(1);
    expect(await refused()).toBe(2);
  });
});
