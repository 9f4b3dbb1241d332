/**
 * The shared one-owner record's file handling: which engine a process serves, a partial last line
 * left for the next read, stale directories of engines that are gone swept, and this process's
 * own facts never read back as another's.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { declarationsSettled, otherOwner, resetOwnership } from "../../../provider/runtime/ownership";
import {
  applicationKey,
  catchUpWithOthers,
  deploymentDirectory,
  deploymentOfThisProcess,
  joinApplication,
  joinDeployment,
  publish,
  resetSharedRecord,
  type Deployment,
} from "../../../provider/runtime/shared-record";

const BASE_URL = "https://platform.example.com";
const deployment: Deployment = { engineAddress: "127.0.0.1:45678", enginePid: process.pid };
const device = { deviceId: "1735000000000000001", sn: "240000A10001" };
const FLEET = { kind: "DeviceFleet", fleet: "site-a" } as const;

function othersFile(pid = 424242): string {
  const directory = deploymentDirectory(deployment);
  fs.mkdirSync(directory, { recursive: true });
  return path.join(directory, `${applicationKey(BASE_URL, "client")}.${pid}.jsonl`);
}

const declaration = JSON.stringify({
  t: "device-declare",
  owner: FLEET,
  serials: [{ sn: device.sn, project: "" }],
  at: 1,
});

beforeEach(() => {
  process.env.DEVPLATFORM_OWNERSHIP_DIR = fs.mkdtempSync(path.join(os.tmpdir(), "owners-unit-"));
  resetOwnership();
  resetSharedRecord();
  joinDeployment(deployment);
  joinApplication(BASE_URL, "client");
});

describe("the engine a provider process serves", () => {
  it("is the address among its arguments and its parent process", () => {
    expect(deploymentOfThisProcess(["127.0.0.1:34567"], 77)).toEqual({
      engineAddress: "127.0.0.1:34567",
      enginePid: 77,
    });
    expect(deploymentOfThisProcess(["--logtostderr", "-v=9", "localhost:1234"], 77)?.engineAddress).toBe(
      "localhost:1234",
    );
    expect(deploymentOfThisProcess(["run", "--project", "unit"], 77)).toBeUndefined();
  });

  it("keys a deployment by the engine's address: another engine is another directory", () => {
    const other = deploymentDirectory({ ...deployment, engineAddress: "127.0.0.1:45679" });
    expect(other).not.toBe(deploymentDirectory(deployment));
  });

  it("keys applications apart by baseUrl and clientId (a trailing slash is the same URL)", () => {
    expect(applicationKey(BASE_URL, "a")).not.toBe(applicationKey(BASE_URL, "b"));
    expect(applicationKey(`${BASE_URL}/`, "a")).toBe(applicationKey(BASE_URL, "a"));
  });
});

describe("reading another process's record", () => {
  it("leaves a last line without its newline for the next read", async () => {
    const file = othersFile();
    fs.writeFileSync(file, declaration.slice(0, 20));
    await declarationsSettled(1);
    expect(otherOwner(device, FLEET)).toBeUndefined();
    fs.appendFileSync(file, `${declaration.slice(20)}\n`);
    await declarationsSettled(1);
    // The same fleet name in another process is another resource (the plugin's fleet in a move).
    expect(otherOwner(device, FLEET)).toMatchObject({ fleet: "site-a", elsewhere: true });
  });

  it("never reads this process's own facts back as another's", async () => {
    publish(JSON.parse(declaration) as Parameters<typeof publish>[0]);
    await catchUpWithOthers();
    expect(otherOwner(device, FLEET)).toBeUndefined();
  });

  it("fails on every read once a line cannot be read, never skipping it", async () => {
    fs.writeFileSync(othersFile(), "not json\n");
    await expect(catchUpWithOthers()).rejects.toThrow(/has a line that is not a record/);
    await expect(catchUpWithOthers()).rejects.toThrow(/has a line that is not a record/);
  });

  it("refuses to read before the provider's application is known", async () => {
    resetSharedRecord();
    joinDeployment(deployment);
    await expect(catchUpWithOthers()).rejects.toThrow(/configuration \(baseUrl, clientId\) is not known yet/);
  });
});

describe("cleaning up", () => {
  it("sweeps the directories of engines that are gone when a process joins, and keeps live ones", () => {
    const root = process.env.DEVPLATFORM_OWNERSHIP_DIR as string;
    const gone = path.join(root, "999999999-0123456789abcdef");
    fs.mkdirSync(gone);
    fs.writeFileSync(path.join(gone, "x.1.jsonl"), `${declaration}\n`);
    resetSharedRecord();
    joinDeployment(deployment);
    joinApplication(BASE_URL, "client");
    expect(fs.existsSync(gone)).toBe(false);
    expect(fs.existsSync(deploymentDirectory(deployment))).toBe(true);
  });

  it("removes this process's file when it leaves", () => {
    const directory = deploymentDirectory(deployment);
    expect(fs.readdirSync(directory)).toEqual([`${applicationKey(BASE_URL, "client")}.${process.pid}.jsonl`]);
    resetSharedRecord();
    expect(fs.existsSync(directory)).toBe(false);
  });
});
