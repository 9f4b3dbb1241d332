/**
 * `devplatform export` when things go wrong: usage errors (exit 2), missing credentials, a wrong
 * secret or URL, a non-empty directory, and a failure half-way that must leave nothing behind.
 */
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../../emulator";
import { parseInventory } from "../../../inventory";
import { expectNoSecrets, fileNames } from "./support/exported-files";
import { seedFleet } from "./support/fleet-fixture";
import { credentialsFor, runDevplatform, type CliRun } from "./support/run-devplatform";

let emulator: RunningEmulator;
let work: string;
const runs: CliRun[] = [];

beforeAll(async () => {
  emulator = await startEmulator();
  await seedFleet(emulator.control, 120);
});
afterAll(async () => {
  expectNoSecrets(["demo-secret", "wrong-secret-value", ...(await emulator.control.issuedTokens())], runs, [
    work,
  ]);
  await emulator.stop();
  rmSync(work, { recursive: true, force: true });
});
beforeEach(async () => {
  await emulator.control.clearFaults();
  // A fresh parent per test, so "nothing left behind" means an empty directory.
  work = mkdtempSync(path.join(tmpdir(), "devplatform-export-fail-"));
});

async function devplatform(args: string[], env: Record<string, string> = {}, stdin?: string) {
  const run = await runDevplatform(args, { env, stdin });
  // Exports only: the emulator's own usage names its default credentials, which are public.
  if (args[0] === "export") runs.push(run);
  return run;
}

describe("usage errors exit 2 with the usage on stderr", () => {
  it.each([
    [["export", "--out", "x", "--bogus"], "Unknown option '--bogus'"],
    [["export"], "--out DIR is required"],
    [["export", "--out", "x", "--style", "grid"], '--style must be fleet or devices, got "grid"'],
    [["export", "--out", "x", "--project-name", "no spaces"], "--project-name must be"],
    [["export", "--out", "x", "stray"], "Unexpected argument 'stray'"],
    [["deploy"], 'unknown command "deploy"'],
    [["--bogus"], 'unknown option "--bogus"'],
    [[], "a command is required"],
    [["emulator", "--bogus"], "Unknown option '--bogus'"],
  ])("devplatform %j", async (args, message) => {
    const run = await devplatform(args);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain(message);
    expect(run.stderr).toMatch(/Usage: devplatform/);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });

  it("refuses a client secret on the command line without echoing it", async () => {
    const run = await devplatform([
      "export",
      "--out",
      path.join(work, "x"),
      "--client-secret",
      "wrong-secret-value",
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("there is no --client-secret option");
    expect(run.stderr).not.toContain("wrong-secret-value");
  });

  it("--help prints the usage on stdout and exits 0, for the command and each subcommand", async () => {
    for (const [args, first] of [
      [["--help"], "Usage: devplatform <command> [options]"],
      [["export", "--help"], "Usage: devplatform export --out DIR [options]"],
      [["emulator", "--help"], "Usage: devplatform emulator [options]"],
    ] as const) {
      const run = await devplatform([...args]);
      expect(run.code).toBe(0);
      expect(run.stdout.split("\n")[0]).toBe(first);
    }
  });
});

describe("credentials and platform", () => {
  it("missing credentials: one message naming the variables, exit 2, no request", async () => {
    await emulator.control.resetCounters();
    const run = await devplatform(["export", "--out", path.join(work, "x")], {
      DEVPLATFORM_CLIENT_ID: "demo-client",
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      "devplatform export: missing platform credentials: DEVPLATFORM_BASE_URL (or --base-url), " +
        "DEVPLATFORM_CLIENT_SECRET (or --client-secret-stdin) are not set " +
        "(the export needs DEVPLATFORM_BASE_URL, DEVPLATFORM_CLIENT_ID and DEVPLATFORM_CLIENT_SECRET)\n",
    );
    expect((await emulator.control.counters()).total).toBe(0);
  });

  it("a wrong secret: authentication_failed with the requestId, exit 1, nothing written", async () => {
    const out = path.join(work, "x");
    const run = await devplatform(
      ["export", "--out", out],
      credentialsFor(emulator.url, "wrong-secret-value"),
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /^devplatform export: error: authentication_failed: the platform at http:\/\/127\.0\.0\.1:\d+ did not accept client id "demo-client"/,
    );
    expect(run.stderr).toMatch(/HTTP 401 authentication_failed: .*\(requestId [0-9a-f]{32}, 1 attempt\)/);
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
    expect(existsSync(out)).toBe(false);
  });

  it("the secret from standard input (--client-secret-stdin) works, with or without a trailing newline", async () => {
    const env = credentialsFor(emulator.url, "wrong-secret-value");
    const run = await devplatform(
      ["export", "--out", path.join(work, "x"), "--client-secret-stdin"],
      env,
      "demo-secret\n",
    );
    expect(run.code).toBe(0);
  });

  it("an unreachable URL: an error naming the URL, exit 1", async () => {
    const dead = await startEmulator();
    const url = dead.url;
    await dead.stop();
    const run = await devplatform(["export", "--out", path.join(work, "x")], credentialsFor(url));
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      `devplatform export: error: cannot reach the platform at ${url} (reading devices)`,
    );
    expect(run.stderr).toContain("ECONNREFUSED");
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(readdirSync(work)).toEqual([]);
  }, 60_000);

  it("a URL that is not the platform: an error naming the URL, exit 1", async () => {
    const url = `${emulator.url}/not-here`;
    const run = await devplatform(["export", "--out", path.join(work, "x")], credentialsFor(url));
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      `devplatform export: error: ${url} does not answer as the device platform does`,
    );
    expect(run.stderr).toContain("HTTP 404");
  });

  it("plain http to a remote host is refused before any request (exit 2)", async () => {
    const run = await devplatform(
      ["export", "--out", path.join(work, "x")],
      credentialsFor("http://platform.example.com"),
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('"http://platform.example.com" cannot be used: baseUrl must use https://');
  });
});

describe("tolerant reading, careful messages", () => {
  it("a device with undocumented status values is exported with the rest, exit 0", async () => {
    const state = await emulator.control.state();
    const odd = state.devices[7];
    if (!odd) throw new Error("the seeded fleet has no 8th device");
    await emulator.control.changeDevice(odd.deviceId, {
      sendAs: { rpsStatus: "ENABELD", connectStatus: "SLEEP", licenseStatus: "TRIAL", deviceType: "HUB" },
    });
    try {
      const out = path.join(work, "x");
      const run = await devplatform(["export", "--out", out], credentialsFor(emulator.url));
      expect(run.stderr).toBe("");
      expect(run.code).toBe(0);
      const exported = parseInventory(readFileSync(path.join(out, "inventory.csv"), "utf8"));
      const inApplication = state.devices.filter((d) => d.applicationId === odd.applicationId);
      expect(exported.map((d) => d.sn).sort()).toEqual(inApplication.map((d) => d.sn).sort());
    } finally {
      await emulator.control.changeDevice(odd.deviceId, {
        sendAs: { rpsStatus: null, connectStatus: null, licenseStatus: null, deviceType: null },
      });
    }
  });

  it("a base URL with user:password or a query is refused before any request, without echoing them", async () => {
    await emulator.control.resetCounters();
    const port = new URL(emulator.url).port;
    for (const url of [
      `http://user:pw-s3cret@127.0.0.1:${port}`,
      `${emulator.url}/?access_token=tok-s3cret`,
    ]) {
      const run = await devplatform(["export", "--out", path.join(work, "x")], credentialsFor(url));
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(
        /DEVPLATFORM_BASE_URL \(or --base-url\) "http:\/\/\*\*\*@127|\?\*\*\*" cannot be used/,
      );
      expect(run.stderr).toMatch(/must not contain (credentials|a query string)/);
      expect(run.stdout + run.stderr).not.toContain("s3cret");
    }
    expect((await emulator.control.counters()).total).toBe(0);
  });
});

describe("the output directory", () => {
  it("refuses a non-empty directory without --force, before reading anything, and leaves it alone", async () => {
    const out = path.join(work, "existing");
    mkdirSync(out);
    writeFileSync(path.join(out, "notes.txt"), "mine");
    await emulator.control.resetCounters();
    const run = await devplatform(["export", "--out", out], credentialsFor(emulator.url));
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      `devplatform export: error: ${out} exists and is not empty; use --force to replace it, or choose another --out\n`,
    );
    expect(fileNames(out)).toEqual(["notes.txt"]);
    expect((await emulator.control.counters()).total).toBe(0);
  });

  it("writes nothing when no device is exported (a header-only inventory.csv, which readInventory refuses)", async () => {
    const out = path.join(work, "none");
    const filtered = await devplatform(
      ["export", "--out", out, "--project", "no-such-project"],
      credentialsFor(emulator.url),
    );
    expect(filtered.code).toBe(1);
    expect(filtered.stderr).toBe(
      "devplatform export: error: no device to export: none of the application's 120 devices matches " +
        "--project/--tag, and a project whose inventory.csv has its header alone would fail its first preview " +
        "(readInventory refuses such a file: a fleet read from it would remove every device it manages); " +
        "nothing was written. Check the credentials and filters\n",
    );
    expect(existsSync(out)).toBe(false);
    const empty = await startEmulator();
    try {
      const run = await devplatform(["export", "--out", out], credentialsFor(empty.url));
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(
        /^devplatform export: error: no device to export: the application at these credentials has no device, .* nothing was written/,
      );
      expect(readdirSync(work)).toEqual([]);
    } finally {
      await empty.stop();
    }
  });

  it("writes into an existing empty directory", async () => {
    const out = path.join(work, "empty");
    mkdirSync(out);
    const run = await devplatform(["export", "--out", out], credentialsFor(emulator.url));
    expect(run.code).toBe(0);
    expect(fileNames(out)).toContain("inventory.csv");
  });

  it("--force replaces a non-empty directory whole", async () => {
    const out = path.join(work, "existing");
    mkdirSync(out);
    writeFileSync(path.join(out, "stale.txt"), "old");
    const run = await devplatform(["export", "--out", out, "--force"], credentialsFor(emulator.url));
    expect(run.code).toBe(0);
    expect(fileNames(out)).toEqual([
      ".gitignore",
      "Pulumi.yaml",
      "index.ts",
      "inventory.csv",
      "package.json",
      "tsconfig.json",
    ]);
    expect(readdirSync(work)).toEqual(["existing"]);
  });

  it("--force never replaces the directory it is run in", async () => {
    writeFileSync(path.join(work, "mine.txt"), "mine");
    const run = await runDevplatform(["export", "--out", ".", "--force"], {
      env: credentialsFor(emulator.url),
      cwd: work,
    });
    runs.push(run);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`${work} is not replaced even with --force`);
    expect(readdirSync(work)).toEqual(["mine.txt"]);
  });

  it("a listing that fails after retries leaves no directory and no temporary directory", async () => {
    // The RPS listing, read after every device page, fails on every attempt (1 + 5 retries).
    await emulator.control.setFaults({
      kinds: ["503"],
      pathIncludes: "/rps/search",
      retryAfterSeconds: 0,
      times: 6,
    });
    const out = path.join(work, "nested", "fleet");
    const run = await devplatform(["export", "--out", out, "--include-rps"], credentialsFor(emulator.url));
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("devplatform export: error: reading RPS records from");
    expect(run.stderr).toMatch(/HTTP 503 service_unavailable.*6 attempts/);
    expect(readdirSync(work)).toEqual([]);
  }, 60_000);

  it("with --force, a failure keeps the old directory as it was", async () => {
    const out = path.join(work, "existing");
    mkdirSync(out);
    writeFileSync(path.join(out, "keep.txt"), "precious");
    // One device's configuration read fails on every attempt (1 + 5 retries).
    const victim = (await emulator.control.state()).devices[42];
    await emulator.control.setFaults({
      kinds: ["500"],
      pathIncludes: `/devices/${victim?.deviceId}/config`,
      retryAfterSeconds: 0,
      times: 6,
    });
    const run = await devplatform(
      ["export", "--out", out, "--force", "--include-config"],
      credentialsFor(emulator.url),
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      `error: reading the configuration of device ${victim?.sn} (deviceId ${victim?.deviceId}) from ${emulator.url} failed: `,
    );
    expect(run.stderr).toMatch(/HTTP 500 internal_error.*6 attempts/);
    expect(readdirSync(work)).toEqual(["existing"]);
    expect(fileNames(out)).toEqual(["keep.txt"]);
    expect(readFileSync(path.join(out, "keep.txt"), "utf8")).toBe("precious");
  }, 60_000);
});
