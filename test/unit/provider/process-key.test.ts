/**
 * A process's key (process-key.ts): a running process is running; one that ended, or a pid now
 * another process's (another start time), is not.
 */
import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { ownProcessKey, processRunning } from "../../../provider/deployment/process-key";

describe("a process's key", () => {
  it("names this process by its pid and, on Linux, its start time", () => {
    expect(ownProcessKey()).toMatch(new RegExp(`^${process.pid}@\\d+$`));
    expect(processRunning(ownProcessKey())).toBe(true);
    expect(processRunning(`${process.pid}@1`)).toBe(false);
  });

  it("tells a running process from one that ended and from a pid reused by another", async () => {
    const child = spawn(process.execPath, ["-e", "setInterval(() => {}, 60000)"], { stdio: "ignore" });
    const pid = child.pid as number;
    try {
      const ticks = /^\d+@(\d+)$/.exec(ownProcessKey())?.[1] as string;
      // Started after this process: its start time is at least ours; read it back through a running check.
      const candidates = Array.from({ length: 5000 }, (_, i) => `${pid}@${Number(ticks) + i}`);
      const key = candidates.find((candidate) => processRunning(candidate));
      expect(key).toBeDefined();
      expect(processRunning(String(pid))).toBe(true);
      expect(processRunning(`${pid}@${Number(ticks) - 1}`)).toBe(false); // another process's start: a reused pid
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGKILL");
      await exited;
      expect(processRunning(key as string)).toBe(false);
      expect(processRunning(String(pid))).toBe(false);
    } finally {
      child.kill("SIGKILL");
    }
  });

  it("counts what it cannot read as running (fails toward keeping a count)", () => {
    expect(processRunning("not a key")).toBe(true);
  });
});
