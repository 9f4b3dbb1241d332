/**
 * The example receiver (examples/webhook-receiver) run as a user runs it, with `tsx`, against the
 * emulator's CLI started with the webhook flags: a configuration task created with the SDK's
 * createConfigTasks is printed with its task id, device id, status and each item; a forged, a late
 * and a replayed delivery are answered 401 and print nothing, nor does a replay whose nonce header
 * is padded (U+00A0, which is not HTTP whitespace, or a tab or space, which is) carrying a forged body.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import path from "node:path";
import { createInterface } from "node:readline";
import { request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EmulatorControl } from "../../../emulator";
import { clearTokenCache, computeWebhookSignature, DevicePlatformClient } from "../../../sdk";
import { startCli, type CliProcess } from "../emulator/support/cli-process";
import { serialNumbers } from "../sdk/support/harness";

const repoRoot = path.resolve(__dirname, "../../..");
const SECRET = "example-receiver-secret";
const nextSerial = serialNumbers();

interface Receiver {
  child: ChildProcess;
  url: string;
  lines: string[];
  /**
   * Resolves once the lines printed so far satisfy `done`. The receiver prints before it answers,
   * but its stdout pipe and its HTTP answer reach this process independently, so a test waits for
   * the lines themselves.
   */
  printed(done: (lines: readonly string[]) => boolean): Promise<void>;
}

async function startExampleReceiver(): Promise<Receiver> {
  const child = spawn("scripts/with-node.sh", ["npx", "tsx", "examples/webhook-receiver/main.ts"], {
    cwd: repoRoot,
    env: { ...process.env, npm_config_script_shell: "/bin/bash", WEBHOOK_SECRET: SECRET, PORT: "0" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const lines: string[] = [];
  const reader = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  const first = await new Promise<string>((resolve, reject) => {
    reader.once("line", resolve);
    child.once("exit", (code) => reject(new Error(`receiver exited (${code}) before listening`)));
  });
  const waiting = new Set<() => void>();
  reader.on("line", (line) => {
    lines.push(line);
    for (const check of waiting) check();
  });
  const url = /listening on (http:\/\/\S+)/.exec(first)?.[1];
  if (!url) throw new Error(`unexpected first line: ${first}`);
  const printed = (done: (lines: readonly string[]) => boolean) =>
    new Promise<void>((resolve) => {
      const check = () => {
        if (!done(lines)) return;
        waiting.delete(check);
        resolve();
      };
      waiting.add(check);
      check();
    });
  return { child, url, lines, printed };
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await exited;
}

let receiver: Receiver;
let emulator: CliProcess;
let control: EmulatorControl;
let client: DevicePlatformClient;

beforeAll(async () => {
  receiver = await startExampleReceiver();
  emulator = await startCli([
    "--control",
    "--task-delay-ms",
    "5",
    "--webhook-url",
    receiver.url,
    "--webhook-secret",
    SECRET,
  ]);
  const baseUrl = /listening on (\S+)/.exec(emulator.firstLine)?.[1] ?? "";
  control = new EmulatorControl(baseUrl);
  clearTokenCache();
  client = new DevicePlatformClient({ baseUrl, clientId: "demo-client", clientSecret: "demo-secret" });
}, 120_000);

afterAll(async () => {
  await client?.close();
  if (emulator) await stop(emulator.child);
  if (receiver) await stop(receiver.child);
});

async function post(headers: Record<string, string>, body: string): Promise<number> {
  const response = await request(receiver.url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body,
  });
  await response.body.dump();
  return response.statusCode;
}

/** Status and text of the answer, e.g. `401 replayed`. */
async function answerTo(headers: Record<string, string>, body: string): Promise<string> {
  const response = await request(receiver.url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body,
  });
  return `${response.statusCode} ${(await response.body.text()).trim()}`;
}

function signed(timestampSeconds: number, nonce = randomUUID()): Record<string, string> {
  const timestamp = String(timestampSeconds);
  return {
    "x-msc-request-signature": computeWebhookSignature(SECRET, timestamp, nonce),
    "x-msc-request-timestamp": timestamp,
    "x-msc-request-nonce": nonce,
    "x-msc-webhook-uuid": randomUUID(),
  };
}

const testBody = (eventId: string) =>
  JSON.stringify([
    {
      eventId,
      eventCreatedTime: Math.floor(Date.now() / 1000),
      eventVersion: "1.0",
      eventType: "WEBHOOK_TEST",
      data: eventId,
    },
  ]);

describe("the example webhook receiver", () => {
  it("prints each configuration task's result: task id, device id, status and every item", async () => {
    const a = await client.addDevice({ snDevEUI: nextSerial(), name: "receiver-a" });
    const b = await client.addDevice({ snDevEUI: nextSerial(), name: "receiver-b" });
    const relations = await client.createConfigTasks({
      type: "TSL",
      deviceIds: [a.deviceId, b.deviceId],
      config: { properties: { reportInterval: 900, ledEnabled: false } },
    });
    const { deliveries } = await control.waitForWebhooks();
    expect(deliveries.every((d) => d.state === "delivered" && d.attempts.length === 1)).toBe(true);
    for (const { taskId, deviceId } of relations) {
      const head = `task ${taskId} device ${deviceId} CONFIG SUCCESS`;
      await receiver.printed((lines) => lines.includes(head) && lines.length >= lines.indexOf(head) + 3);
      const at = receiver.lines.indexOf(`task ${taskId} device ${deviceId} CONFIG SUCCESS`);
      expect(at, receiver.lines.join("\n")).toBeGreaterThanOrEqual(0);
      expect(receiver.lines.slice(at + 1, at + 3)).toEqual([
        "  reportInterval SUCCESS 900",
        "  ledEnabled SUCCESS false",
      ]);
      expect(receiver.lines).toContain(
        `device ${deviceId} reported PROPERTY {"reportInterval":900,"ledEnabled":false}`,
      );
    }
  });

  it("answers 401 to a forged, a late and a replayed delivery, and prints none of them", async () => {
    const now = Math.floor(Date.now() / 1000);
    const before = receiver.lines.length;
    const forged = { ...signed(now), "x-msc-request-signature": "0".repeat(64) };
    expect(await post(forged, testBody("forged"))).toBe(401);
    expect(await post(signed(now - 61), testBody("late"))).toBe(401);
    const once = signed(now);
    expect(await post(once, testBody("first"))).toBe(200);
    expect(await post(once, testBody("replayed"))).toBe(401);
    expect(await post(signed(now), "not json")).toBe(401);
    expect(await post(signed(now), testBody("last"))).toBe(200);
    // stdout keeps its order: once "last" is printed, anything printed for the refused ones would be too.
    await receiver.printed((lines) => lines.includes('WEBHOOK_TEST "last"'));
    expect(receiver.lines.slice(before)).toEqual(['WEBHOOK_TEST "first"', 'WEBHOOK_TEST "last"']);
  });

  it("refuses a replay whose nonce is padded, with a forged body, and prints none of it", async () => {
    const before = receiver.lines.length;
    const nonce = randomUUID();
    const original = signed(Math.floor(Date.now() / 1000), nonce);
    expect(await answerTo(original, testBody("genuine"))).toBe("200 ok");
    // The signature covers the timestamp and nonce only, so a replay may carry any body. U+00A0
    // travels as the single latin1 byte 0xA0 (undici writes header values as latin1, Node reads
    // them so); String.prototype.trim once removed it before the HMAC while the guard keyed on the
    // raw header, and the forged body was printed.
    for (const padded of [nonce + "\u00a0", "\u00a0" + nonce]) {
      const replay = { ...original, "x-msc-request-nonce": padded };
      expect(await answerTo(replay, testBody("forged"))).toBe("401 bad_signature");
    }
    // SP and HTAB around a value are HTTP's own optional whitespace: the same nonce, seen before.
    for (const padded of [nonce + "\t", " " + nonce, "\t " + nonce + " \t"]) {
      const replay = { ...original, "x-msc-request-nonce": padded };
      expect(await answerTo(replay, testBody("forged"))).toBe("401 replayed");
    }
    expect(await answerTo(signed(Math.floor(Date.now() / 1000)), testBody("after"))).toBe("200 ok");
    // stdout keeps its order: once "after" is printed, anything printed for the refused ones would be too.
    await receiver.printed((lines) => lines.includes('WEBHOOK_TEST "after"'));
    expect(receiver.lines.slice(before)).toEqual(['WEBHOOK_TEST "genuine"', 'WEBHOOK_TEST "after"']);
    expect(receiver.lines.join("\n")).not.toContain("forged");
  });
});
