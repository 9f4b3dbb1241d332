/**
 * The one-owner record's life, tied to its deployment: a record left at a reused engine address
 * (its processes ended by SIGKILL) is never taken by the new deployment there — it is keyed by the
 * socket listening at the address too — and is swept; a process ended by SIGTERM, SIGINT or SIGHUP
 * removes its file as one that exits does; and whether the program ran is read from every process
 * of the deployment, whatever application it serves, while its owners stay the application's.
 * Child processes here are real node processes running this package's record module.
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as net from "node:net";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { listenerAt } from "../../../provider/deployment/engine-listener";
import {
  declarationsSettled,
  otherOwner,
  programRan,
  resetOwnership,
} from "../../../provider/guardrails/ownership";
import {
  applicationKey,
  deploymentDirectory,
  deploymentOfThisProcess,
  joinApplication,
  joinDeployment,
  resetSharedRecord,
} from "../../../provider/deployment/shared-record";

const device = { deviceId: "1735000000000000001", sn: "240000A10001" };
const DELETER = { kind: "Device" } as const;
const claim = JSON.stringify({
  t: "device-claim",
  deviceId: device.deviceId,
  sn: device.sn,
  owner: { kind: "Device" },
});
const ran = JSON.stringify({ t: "program-ran" });
let engine: net.Server;
let address: string;

beforeAll(async () => {
  engine = net.createServer((socket) => socket.destroy());
  await new Promise<void>((resolve) => engine.listen(0, "127.0.0.1", resolve));
  address = `127.0.0.1:${(engine.address() as net.AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => engine.close(() => resolve())));

beforeEach(() => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "record-life-"));
  process.env.DEVPLATFORM_OWNERSHIP_DIR = path.join(root, "owners");
  resetOwnership();
  resetSharedRecord();
});

/** A directory as a deployment's processes leave it when the engine SIGKILLs them. */
function plant(
  deployment: { engineAddress: string; listener?: string },
  lines: string[],
  app = "client",
): string {
  const directory = deploymentDirectory(deployment);
  fs.mkdirSync(directory, { recursive: true, mode: 0o700 });
  fs.chmodSync(path.dirname(directory), 0o700);
  fs.writeFileSync(
    path.join(directory, "deployment.json"),
    JSON.stringify({ ...deployment, netns: fs.readlinkSync("/proc/self/ns/net") }),
  );
  fs.writeFileSync(path.join(directory, `${applicationKey(app)}.424242.jsonl`), lines.join("\n") + "\n");
  return directory;
}

describe("a record left at a reused engine address", () => {
  it("is not the new deployment's: its claim and program-ran are not read, and it is swept", async () => {
    // Left by an earlier engine at this port: keyed by the address alone (as before), and by the
    // address and that engine's listening socket.
    const byAddress = plant({ engineAddress: address }, [claim, ran]);
    const earlierListener = plant({ engineAddress: address, listener: "1" }, [claim, ran]);
    const deployment = deploymentOfThisProcess([address]);
    joinDeployment(deployment);
    joinApplication("client");
    await declarationsSettled(1);
    expect(otherOwner(device, DELETER)).toBeUndefined();
    expect(programRan()).toBe(false);
    expect(deployment?.listener).toMatch(/^\d+(,\d+)*$/);
    // The earlier listener's directory is proven over though its address answers: another socket listens.
    await expect.poll(() => fs.existsSync(earlierListener)).toBe(false);
    expect(fs.existsSync(byAddress)).toBe(true);
  });
});

describe("whether the program ran", () => {
  it("is read from a process of another application; that process's owners are not", async () => {
    const deployment = deploymentOfThisProcess([address]);
    plant(deployment as { engineAddress: string }, [claim, ran], "another-client");
    joinDeployment(deployment);
    joinApplication("client");
    await declarationsSettled(1);
    expect(programRan()).toBe(true);
    expect(otherOwner(device, DELETER)).toBeUndefined();
  });
});

describe("a process ended by a signal", () => {
  const record = path.resolve("provider/deployment/shared-record.ts");

  it.each(["SIGTERM", "SIGINT", "SIGHUP"] as const)("removes its file (%s)", async (signal) => {
    const script = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "record-child-")), "child.ts");
    fs.writeFileSync(
      script,
      [
        `import { joinApplication, joinDeployment } from ${JSON.stringify(record)};`,
        `joinDeployment({ engineAddress: ${JSON.stringify(address)} });`,
        `joinApplication("client");`,
        `process.stdout.write("joined\\n");`,
        `setInterval(() => undefined, 1000);`,
      ].join("\n"),
    );
    // node itself (tsx's loader, not its CLI, which would put a process of its own between).
    const child = spawn(process.execPath, ["--import", "tsx", script], {
      cwd: process.cwd(),
      env: process.env,
      stdio: ["ignore", "pipe", "inherit"],
    });
    await new Promise<void>((resolve, reject) => {
      child.stdout.on("data", (chunk: Buffer) => chunk.includes("joined") && resolve());
      child.on("exit", (code) => reject(new Error(`the child exited (${code}) before it joined`)));
    });
    const file = path.join(
      deploymentDirectory({ engineAddress: address }),
      `${applicationKey("client")}.${child.pid}.jsonl`,
    );
    expect(fs.existsSync(file)).toBe(true);
    const ended = new Promise<NodeJS.Signals | null>((resolve) =>
      child.on("exit", (_code, how) => resolve(how)),
    );
    child.kill(signal);
    expect(await ended).toBe(signal);
    expect(fs.existsSync(file)).toBe(false);
    // The last writer takes the deployment's directory with it.
    expect(fs.existsSync(path.dirname(file))).toBe(false);
  });
});

describe("the socket listening at an engine's address", () => {
  const header =
    "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode";
  const row = (local: string, state: string, inode: string) =>
    `   0: ${local} 00000000:0000 ${state} 00000000:00000000 00:00000000 00000000  1000        0 ${inode} 1 0 0 10 0`;
  const tables = (tcp: string[], tcp6: string[]) => (file: string) =>
    [header, ...(file.endsWith("tcp6") ? tcp6 : tcp)].join("\n");

  it("is the LISTEN sockets at its port, IPv4 and IPv6, never a connection's", () => {
    const read = tables(
      [
        row("0100007F:9C40", "0A", "5551"),
        row("0100007F:9C40", "01", "5552"),
        row("0100007F:9C41", "0A", "5553"),
      ],
      [row("00000000000000000000000001000000:9C40", "0A", "5550")],
    );
    expect(listenerAt("127.0.0.1:40000", read)).toEqual({ kind: "found", identity: "5550,5551" });
  });

  it("is none when nothing listens there, and unknown without /proc/net", () => {
    expect(listenerAt("127.0.0.1:40000", tables([row("0100007F:9C41", "0A", "1")], []))).toEqual({
      kind: "none",
    });
    const absent = () => {
      throw Object.assign(new Error("ENOENT"), { code: "ENOENT" });
    };
    expect(listenerAt("127.0.0.1:40000", absent)).toEqual({ kind: "unknown" });
  });
});
