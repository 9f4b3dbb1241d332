/**
 * The shared one-owner record's file handling: which engine a process serves (its address, never
 * its parent), a partial last line left for the next read, directories swept only when their
 * engine is proven gone, this process's own facts never read back as another's, and a record that
 * cannot be created, trusted or read failing every use, naming the path.
 */
import * as fs from "node:fs";
import * as net from "node:net";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { declarationsSettled, otherOwner, resetOwnership } from "../../../provider/guardrails/ownership";
import {
  applicationKey,
  catchUpWithOthers,
  deploymentDirectory,
  deploymentOfThisProcess,
  joinApplication,
  joinDeployment,
  publish,
  resetSharedRecord,
  SharedRecordError,
  type Deployment,
  type SharedFact,
} from "../../../provider/deployment/shared-record";

const device = { deviceId: "1735000000000000001", sn: "240000A10001" };
const FLEET = { kind: "DeviceFleet", fleet: "site-a" } as const;
let engine: net.Server;
let deployment: Deployment;

/** A pretend engine that listens, so that the deployment is live to the sweep. */
beforeAll(async () => {
  engine = net.createServer((socket) => socket.destroy());
  await new Promise<void>((resolve) => engine.listen(0, "127.0.0.1", resolve));
  deployment = { engineAddress: `127.0.0.1:${(engine.address() as net.AddressInfo).port}` };
});
afterAll(() => new Promise<void>((resolve) => engine.close(() => resolve())));

function othersFile(pid = 424242): string {
  const directory = deploymentDirectory(deployment);
  fs.mkdirSync(directory, { recursive: true });
  return path.join(directory, `${applicationKey("client")}.${pid}.jsonl`);
}

const declaration = JSON.stringify({
  t: "device-declare",
  owner: FLEET,
  serials: [{ sn: device.sn, project: "" }],
  at: 1,
});

function freshRoot(): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "owners-unit-"));
  process.env.DEVPLATFORM_OWNERSHIP_DIR = path.join(root, "owners");
  return process.env.DEVPLATFORM_OWNERSHIP_DIR;
}

function rejoin(): void {
  resetOwnership();
  resetSharedRecord();
  joinDeployment(deployment);
  joinApplication("client");
}

beforeEach(() => {
  freshRoot();
  rejoin();
});

describe("the engine a provider process serves", () => {
  it("is the address among its arguments, whatever the parent process", () => {
    expect(deploymentOfThisProcess(["127.0.0.1:34567"])?.engineAddress).toBe("127.0.0.1:34567");
    expect(deploymentOfThisProcess(["--logtostderr", "-v=9", "localhost:1234"])?.engineAddress).toBe(
      "localhost:1234",
    );
    expect(deploymentOfThisProcess(["run", "--project", "unit"])).toBeUndefined();
  });

  it("keys a deployment by the engine's address: another engine is another directory", () => {
    const other = deploymentDirectory({ engineAddress: "127.0.0.1:45679" });
    expect(other).not.toBe(deploymentDirectory(deployment));
  });

  it("keys an application by its clientId, never by the spelling of its URL", () => {
    expect(applicationKey("a")).not.toBe(applicationKey("b"));
    expect(applicationKey(" a ")).toBe(applicationKey("a"));
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
    publish(JSON.parse(declaration) as SharedFact);
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
    await expect(catchUpWithOthers()).rejects.toThrow(/configuration \(clientId\) is not known yet/);
  });
});

describe("a record that cannot be trusted fails closed, naming the path", () => {
  it("when the record's directory cannot be created: every publish and read fails, without a stack", async () => {
    const blocker = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "owners-unit-")), "a-file");
    fs.writeFileSync(blocker, "");
    process.env.DEVPLATFORM_OWNERSHIP_DIR = path.join(blocker, "owners");
    rejoin();
    const fact = JSON.parse(declaration) as SharedFact;
    for (let attempt = 0; attempt < 2; attempt += 1) {
      expect(() => publish(fact)).toThrow(SharedRecordError);
      await expect(catchUpWithOthers()).rejects.toThrow(
        /cannot be opened at .*a-file\/owners.*(ENOTDIR|EEXIST)/,
      );
    }
    const error: unknown = await catchUpWithOthers().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(SharedRecordError);
    expect((error as Error).stack).toBe((error as Error).message);
  });

  it("when the root is writable by others", async () => {
    const root = freshRoot();
    fs.mkdirSync(root, { mode: 0o777 });
    fs.chmodSync(root, 0o777);
    rejoin();
    await expect(catchUpWithOthers()).rejects.toThrow(/owners.* is writable by others \(mode 777\)/);
  });

  it("when the deployment's directory is a symbolic link", async () => {
    const root = freshRoot();
    fs.mkdirSync(root, { mode: 0o700 });
    const elsewhere = fs.mkdtempSync(path.join(os.tmpdir(), "planted-"));
    fs.symlinkSync(elsewhere, deploymentDirectory(deployment));
    rejoin();
    await expect(catchUpWithOthers()).rejects.toThrow(/is a symbolic link/);
  });

  it("when another process's file is a symbolic link or writable by others", async () => {
    const planted = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "planted-")), "claims.jsonl");
    fs.writeFileSync(planted, `${declaration}\n`);
    fs.symlinkSync(planted, othersFile(1));
    await expect(catchUpWithOthers()).rejects.toThrow(/cannot be read/);
    expect(otherOwner(device, FLEET)).toBeUndefined();
    fs.rmSync(othersFile(1));
    fs.writeFileSync(othersFile(2), `${declaration}\n`);
    fs.chmodSync(othersFile(2), 0o666);
    await expect(catchUpWithOthers()).rejects.toThrow(/is writable by others \(mode 666\)/);
  });

  it("when this process's own file was taken away (its directory swept)", async () => {
    fs.rmSync(deploymentDirectory(deployment), { recursive: true });
    await expect(catchUpWithOthers()).rejects.toThrow(/cannot be read/);
  });
});

describe("cleaning up", () => {
  function described(engineAddress: string, netns: string): string {
    const root = process.env.DEVPLATFORM_OWNERSHIP_DIR as string;
    const directory = fs.mkdtempSync(path.join(root, "deployment-"));
    fs.writeFileSync(path.join(directory, "deployment.json"), JSON.stringify({ engineAddress, netns }));
    fs.writeFileSync(path.join(directory, "x.1.jsonl"), `${declaration}\n`);
    return directory;
  }

  it("sweeps only directories whose engine is proven gone: live, unseen and foreign ones stay", async () => {
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const gonePort = (closed.address() as net.AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const netns = fs.readlinkSync("/proc/self/ns/net");
    const gone = described(`127.0.0.1:${gonePort}`, netns);
    const live = described(deployment.engineAddress, netns);
    // Another network namespace (a container sharing /tmp): its engine cannot be seen from here.
    const foreign = described(`127.0.0.1:${gonePort}`, "net:[1]");
    const undescribed = fs.mkdtempSync(
      path.join(process.env.DEVPLATFORM_OWNERSHIP_DIR as string, "deployment-"),
    );
    resetSharedRecord();
    joinDeployment({ engineAddress: "127.0.0.1:1" });
    joinApplication("client");
    await expect.poll(() => fs.existsSync(gone)).toBe(false);
    for (const kept of [live, foreign, undescribed]) expect(fs.existsSync(kept)).toBe(true);
  });

  it("removes this process's file when it leaves, and the directory with the last one", () => {
    const directory = deploymentDirectory(deployment);
    expect(fs.readdirSync(directory).sort()).toEqual([
      `${applicationKey("client")}.${process.pid}.jsonl`,
      "deployment.json",
    ]);
    fs.writeFileSync(othersFile(), "");
    resetSharedRecord();
    expect(fs.readdirSync(directory).sort()).toEqual([path.basename(othersFile()), "deployment.json"]);
    fs.rmSync(othersFile());
    joinDeployment(deployment);
    joinApplication("client");
    resetSharedRecord();
    expect(fs.existsSync(directory)).toBe(false);
  });
});
