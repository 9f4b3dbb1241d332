/**
 * The emulator as docs/guides/emulator.md starts it on a machine without Node.js: with no `node`
 * and no `npm` on PATH, `scripts/provision-node.sh` fetches Node.js 22 and npm from the npm
 * registry as tarballs (sha512-checked, once per machine, into the provisioning cache), and
 * `scripts/emulator.sh` runs the emulator on them: first line, the API, its state file, SIGTERM.
 *
 * What it does not repeat is the first run's `npm ci` of a fresh checkout (this checkout has its
 * dependencies), which the docs' newcomer run did by hand.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fetch } from "undici";
import { describe, expect, it } from "vitest";
import { startProcess } from "../integration/emulator/support/cli-process";

const repoRoot = path.resolve(__dirname, "../..");

/** The tools the scripts use, and nothing else: no node, no npm. */
const TOOLS = [
  "bash",
  "sh",
  "curl",
  "tar",
  "gzip",
  "grep",
  "head",
  "cut",
  "base64",
  "od",
  "tr",
  "sha512sum",
  "mkdir",
  "mv",
  "rm",
  "ln",
  "chmod",
  "dirname",
  "uname",
  "mktemp",
  "sleep",
  "rmdir",
  "cat",
  "printf",
];

/** A directory of links to the system's copies of TOOLS, to be the whole PATH. */
function pathWithoutNode(): string {
  const dir = path.join(mkdtempSync(path.join(tmpdir(), "no-node-")), "bin");
  mkdirSync(dir);
  for (const tool of TOOLS) {
    const found = ["/usr/bin", "/bin"].map((d) => path.join(d, tool)).find((file) => existsSync(file));
    if (found === undefined) throw new Error(`${tool} is not in /usr/bin or /bin`);
    symlinkSync(found, path.join(dir, tool));
  }
  return dir;
}

describe("the emulator on a machine without Node.js", () => {
  const env = { HOME: process.env.HOME ?? "", PATH: pathWithoutNode(), LANG: "C.UTF-8" };
  for (const key of ["DEVPLATFORM_CACHE", "XDG_CACHE_HOME", "NODE_EXTRA_CA_CERTS", "SSL_CERT_FILE"]) {
    const value = process.env[key];
    if (value !== undefined) Object.assign(env, { [key]: value });
  }

  it("provision-node.sh installs Node.js 22 and npm with curl and tar alone", () => {
    const dir = execFileSync("bash", ["scripts/provision-node.sh"], {
      cwd: repoRoot,
      env,
      encoding: "utf8",
    }).trim();
    expect(path.basename(path.dirname(dir))).toBe("node-v22.23.3-standalone");
    const run = (tool: string) =>
      execFileSync(path.join(dir, tool), ["--version"], {
        env: { ...env, PATH: `${dir}:${env.PATH}` },
        encoding: "utf8",
      });
    expect(run("node").trim()).toBe("v22.23.3");
    expect(run("npm").trim()).toBe("10.9.4");
  });

  it("scripts/emulator.sh prints its URL, serves the API, keeps its state and stops on SIGTERM", async () => {
    const state = path.join(mkdtempSync(path.join(tmpdir(), "emulator-state-")), "state.json");
    const { child, firstLine, stderr, exited } = await startProcess(
      "scripts/emulator.sh",
      ["--port", "0", "--state", state],
      env,
    );
    const url = /^devplatform-emulator listening on (http:\/\/127\.0\.0\.1:\d+)$/.exec(firstLine)?.[1];
    expect(url).toBeDefined();
    const token = await fetch(`${url}/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "grant_type=client_credentials&client_id=demo-client&client_secret=demo-secret",
    });
    expect(token.status).toBe(200);
    child.kill("SIGTERM");
    expect((await exited).code).toBe(0);
    expect(stderr()).toContain("devplatform emulator: SIGTERM, stopping");
    expect(JSON.parse(readFileSync(state, "utf8"))).toBeTypeOf("object");
  });
});
