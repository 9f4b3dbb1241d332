import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fetch } from "undici";
import { describe, expect, it } from "vitest";
import { parseJson, startEmulator } from "../../../emulator";
import { runCli, startCli } from "./support/cli-process";
import { PlatformApi } from "./support/platform-api";
import { addDevice, serial, type DeviceJson } from "./support/fixtures";

const LISTENING = /^devplatform-emulator listening on (http:\/\/127\.0\.0\.1:(\d+))$/;

interface StateFile {
  devices: { deviceId: string; sn: string; name: string }[];
  rpsRecords: { sn: string }[];
}

function readState(file: string): StateFile {
  return parseJson(readFileSync(file, "utf8")) as StateFile;
}

describe("the CLI with --state", () => {
  it("prints its URL first, saves state on SIGTERM with exit 0, and finds the device after a restart", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "emulator-cli-"));
    const file = path.join(dir, "state.json");

    const first = await startCli(["--port", "0", "--state", file]);
    const match = LISTENING.exec(first.firstLine);
    expect(match, first.firstLine).not.toBeNull();
    expect(Number(match?.[2])).toBeGreaterThan(0);
    const api = new PlatformApi(match?.[1] ?? "");
    const sn = serial("66");
    const { deviceId } = await addDevice(api, sn, { name: "survives-restart" });
    await api.ok("POST", "/rps/profile", { sn: serial("AC"), profileUrl: "https://rps.example.com/p" });
    expect((await fetch(`${match?.[1]}/__emulator/state`)).status).toBe(404); // no --control

    first.child.kill("SIGTERM");
    expect(await first.exited).toEqual({ code: 0, signal: null });
    const saved = readState(file);
    expect(saved.devices).toEqual([expect.objectContaining({ deviceId, sn, name: "survives-restart" })]);
    expect(saved.rpsRecords).toHaveLength(1);
    expect(readdirSync(dir)).toEqual(["state.json"]); // the temp file was renamed, none left behind

    const second = await startCli(["--port", "0", "--state", file, "--control"]);
    const url = LISTENING.exec(second.firstLine)?.[1] ?? "";
    const restarted = new PlatformApi(url);
    const device = await restarted.ok<DeviceJson>("GET", `/devices/${deviceId}`);
    expect(device).toMatchObject({ sn, name: "survives-restart" });
    // Tokens are state too: the first run's token still works.
    expect(
      (await restarted.call("GET", `/devices/${deviceId}`, undefined, { token: await api.token() })).status,
    ).toBe(200);
    const next = await addDevice(restarted, serial());
    expect(BigInt(next.deviceId)).toBe(BigInt(deviceId) + 1n);
    expect((await fetch(`${url}/__emulator/state`)).status).toBe(200);
    second.child.kill("SIGINT");
    expect((await second.exited).code).toBe(0);
    expect(readState(file).devices).toHaveLength(2);
  });

  it("prints usage for --help and refuses unknown options with exit code 2", async () => {
    const [help, bad] = await Promise.all([runCli(["--help"]), runCli(["--port", "0", "--colour"])]);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: devplatform-emulator/);
    expect(help.stdout).toContain("--numeric-ids");
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--colour");
  });
});

describe("startEmulator with statePath", () => {
  it("writes the state file shortly after a change, without waiting for stop", async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), "emulator-state-")), "state.json");
    const emulator = await startEmulator({ statePath: file });
    try {
      const sn = serial();
      await addDevice(new PlatformApi(emulator.url), sn);
      let devices: StateFile["devices"] = [];
      // Polls until the write: the bound only guards against a hang (the write is due after 100 ms).
      for (let i = 0; i < 1_000 && devices.length === 0; i += 1) {
        await sleep(20);
        try {
          devices = readState(file).devices;
        } catch {
          devices = [];
        }
      }
      expect(devices.map((d) => d.sn)).toEqual([sn]);
    } finally {
      await emulator.stop();
    }
  });

  it("resumes tasks that were still PENDING when the emulator stopped", async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), "emulator-state-")), "state.json");
    const before = await startEmulator({ statePath: file, taskDelayMs: 60_000 });
    const api = new PlatformApi(before.url);
    const { deviceId } = await addDevice(api, serial("24"));
    await api.ok("POST", "/tasks", {
      type: "TSL",
      deviceIds: [deviceId],
      config: { properties: { reportInterval: 1800 } },
    });
    await before.stop();
    const after = await startEmulator({ statePath: file, taskDelayMs: 10 });
    try {
      // Waits for the resumed task to run (10 ms after the start), however busy the machine is.
      let tasks = await after.control.tasks();
      for (let i = 0; i < 1_000 && tasks.some((t) => t.status === "PENDING"); i += 1) {
        await sleep(20);
        tasks = await after.control.tasks();
      }
      expect(tasks.map((t) => t.status)).toEqual(["SUCCEEDED"]);
      const config = await new PlatformApi(after.url).ok<{ properties: { reportInterval: number } }>(
        "GET",
        `/devices/${deviceId}/config`,
      );
      expect(config.properties.reportInterval).toBe(1800);
    } finally {
      await after.stop();
    }
  });

  it("fails to start when the state file cannot be written", async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), "emulator-state-")), "missing-dir", "state.json");
    await expect(startEmulator({ statePath: file })).rejects.toThrow(/ENOENT/);
  });

  it("refuses to start from a file that is not an emulator state file", async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), "emulator-state-")), "state.json");
    writeFileSync(file, '{"hello": "world"}');
    await expect(startEmulator({ statePath: file })).rejects.toThrow(/not an emulator state file/);
  });
});
