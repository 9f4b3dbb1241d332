/** `devplatform emulator` is the emulator's own command line: same first line, options and shutdown. */
import { spawn } from "node:child_process";
import path from "node:path";
import { createInterface } from "node:readline";
import { fetch } from "undici";
import { describe, expect, it } from "vitest";
import { EmulatorControl } from "../../../emulator";

const repoRoot = path.resolve(__dirname, "../../..");

describe("devplatform emulator", () => {
  it("prints the listening URL first, serves the API and the control API, and stops cleanly on SIGTERM", async () => {
    const child = spawn(
      process.execPath,
      ["--import", "tsx", "cli/main.ts", "emulator", "--port", "0", "--control", "--client-id", "c1"],
      { cwd: repoRoot, stdio: ["ignore", "pipe", "pipe"] },
    );
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
    const firstLine = await new Promise<string>((resolve, reject) => {
      createInterface({ input: child.stdout }).once("line", resolve);
      void exited.then((code) => reject(new Error(`exited ${code} before printing: ${stderr}`)));
    });
    const match = /^devplatform-emulator listening on (http:\/\/127\.0\.0\.1:\d+)$/.exec(firstLine);
    expect(match).not.toBeNull();
    const url = match?.[1] ?? "";
    const token = await fetch(`${url}/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "grant_type=client_credentials&client_id=c1&client_secret=demo-secret",
    });
    expect(token.status).toBe(200);
    await new EmulatorControl(url).seed({ devices: [{ sn: "240000000001", name: "a" }] });
    expect((await new EmulatorControl(url).state()).devices).toHaveLength(1);
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(stderr).toContain("devplatform emulator: SIGTERM, stopping");
  });
});
