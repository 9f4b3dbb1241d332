/**
 * The spent quota shared by the provider processes of one deployment (quota-share.ts): a refusal
 * is published to this process's file of the shared record; another process's refusal, read from
 * its file, is found before every request that is not a GET and before a GET once the last read
 * is older than the interval; a record that cannot be read lets requests go (the platform refuses
 * them if the quota is spent); another deployment's refusal halts nothing.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { DeploymentQuotaShare } from "../../../provider/platform-access/quota-share";
import {
  applicationKey,
  deploymentDirectory,
  joinApplication,
  joinDeployment,
  onOthersFact,
  resetSharedRecord,
  type Deployment,
} from "../../../provider/deployment/shared-record";

const deployment: Deployment = { engineAddress: "127.0.0.1:45680" };
const PUT = { method: "PUT", path: "/device/openapi/v1/devices" } as const;
const GET = { method: "GET", path: "/device/openapi/v1/devices/1735000000000000001" } as const;
const refusal = {
  method: "POST",
  path: "/device/openapi/v1/devices",
  status: 429,
  errCode: "quota_exhausted",
  errMsg: "the daily request quota of 22 requests for this application is spent",
  requestId: "0f3c9a",
};

let clock = 0;
let share = new DeploymentQuotaShare();
// Facts reach whichever share the current test made (handlers cannot be removed).
onOthersFact((fact) => share.take(fact));

function othersFile(of: Deployment = deployment, pid = 424242): string {
  const directory = deploymentDirectory(of);
  fs.mkdirSync(directory, { recursive: true });
  return path.join(directory, `${applicationKey("client")}.${pid}.jsonl`);
}

function ownFile(): string {
  return path.join(deploymentDirectory(deployment), `${applicationKey("client")}.${process.pid}.jsonl`);
}

function anotherProcessRefused(file = othersFile()): void {
  fs.appendFileSync(file, `${JSON.stringify({ t: "quota-exhausted", ...refusal, at: 1 })}\n`);
}

beforeEach(() => {
  process.env.DEVPLATFORM_OWNERSHIP_DIR = fs.mkdtempSync(path.join(os.tmpdir(), "quota-unit-"));
  resetSharedRecord();
  joinDeployment(deployment);
  joinApplication("client");
  clock = 1_000_000;
  // The default interval: the test of a GET below holds the documented 250 ms.
  share = new DeploymentQuotaShare(() => clock);
});

describe("this process's refusal", () => {
  it("is published to its file as one fact, with what the platform said and nothing else", () => {
    const error = Object.assign(new Error("refused"), refusal, { attempts: 1, code: "quota_exhausted" });
    share.refused(error);
    const lines = fs.readFileSync(ownFile(), "utf8").trim().split("\n");
    expect(lines.map((line) => JSON.parse(line) as unknown)).toEqual([
      { t: "quota-exhausted", ...refusal, at: 1_000_000 },
    ]);
  });
});

describe("another process's refusal", () => {
  it("halts the next request that is not a GET, at once", async () => {
    expect(await share.refusedElsewhere(PUT)).toBeUndefined();
    anotherProcessRefused();
    expect(await share.refusedElsewhere(PUT)).toEqual(refusal);
  });

  it("halts a GET once the last read is 250 ms old", async () => {
    expect(await share.refusedElsewhere(GET)).toBeUndefined();
    anotherProcessRefused();
    clock += 249;
    expect(await share.refusedElsewhere(GET)).toBeUndefined();
    clock += 1;
    expect(await share.refusedElsewhere(GET)).toEqual(refusal);
  });

  it("halts a GET 250 ms after the last read however the wall clock steps: the machine's clock decides", async () => {
    vi.useFakeTimers({ toFake: ["Date", "hrtime"] });
    try {
      const onMachineClock = new DeploymentQuotaShare();
      share = onMachineClock;
      expect(await onMachineClock.refusedElsewhere(GET)).toBeUndefined();
      anotherProcessRefused();
      vi.setSystemTime(Date.now() - 3_600_000); // the wall clock steps back an hour
      vi.advanceTimersByTime(250);
      expect(await onMachineClock.refusedElsewhere(GET)).toEqual(refusal);
    } finally {
      vi.useRealTimers();
    }
  });

  it("halts a GET at once when a write's read found the refusal", async () => {
    expect(await share.refusedElsewhere(GET)).toBeUndefined();
    anotherProcessRefused();
    expect(await share.refusedElsewhere(PUT)).toEqual(refusal);
    expect(await share.refusedElsewhere(GET)).toEqual(refusal);
  });

  it("is read from a line completed after a first read saw half of it", async () => {
    const file = othersFile();
    const line = JSON.stringify({ t: "quota-exhausted", ...refusal, at: 1 });
    fs.writeFileSync(file, line.slice(0, 30));
    expect(await share.refusedElsewhere(PUT)).toBeUndefined();
    fs.appendFileSync(file, `${line.slice(30)}\n`);
    expect(await share.refusedElsewhere(PUT)).toEqual(refusal);
  });

  it("of another deployment or another application halts nothing", async () => {
    anotherProcessRefused(othersFile({ ...deployment, engineAddress: "127.0.0.1:45681" }));
    const otherApplication = path.join(
      deploymentDirectory(deployment),
      `${applicationKey("other-client")}.424243.jsonl`,
    );
    anotherProcessRefused(otherApplication);
    expect(await share.refusedElsewhere(PUT)).toBeUndefined();
  });

  it("in a record that cannot be read lets the request go: the platform is the judge", async () => {
    fs.writeFileSync(othersFile(), "not a fact\n");
    expect(await share.refusedElsewhere(PUT)).toBeUndefined();
  });

  it("is not looked for by a process outside any deployment", async () => {
    resetSharedRecord();
    joinDeployment(undefined);
    joinApplication("client");
    anotherProcessRefused();
    expect(await share.refusedElsewhere(PUT)).toBeUndefined();
  });

  it("is forgotten by reset, as the next deployment's process starts with nothing", async () => {
    anotherProcessRefused();
    expect(await share.refusedElsewhere(PUT)).toEqual(refusal);
    share.reset();
    resetSharedRecord();
    joinDeployment({ ...deployment, engineAddress: "127.0.0.1:45682" });
    joinApplication("client");
    expect(await share.refusedElsewhere(PUT)).toBeUndefined();
  });
});
