import { spawnSync } from "node:child_process";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { MINIMUM_NODE_MAJOR, assertSupportedNode } from "../../../sdk";

const ROOT = resolve(__dirname, "../../..");

describe("assertSupportedNode", () => {
  it("refuses Node.js before 22, naming the required and the running version", () => {
    for (const version of ["20.20.2", "21.7.3", "18.0.0", "v20.1.0", "not-a-version"]) {
      expect(() => assertSupportedNode(version), version).toThrow(
        `pulumi-devplatform needs Node.js 22 or later, but this is Node.js ${version}`,
      );
    }
  });

  it("accepts Node.js 22 and later", () => {
    expect(MINIMUM_NODE_MAJOR).toBe(22);
    for (const version of ["22.0.0", "22.19.0", "23.1.0", "24.4.1", "v22.3.0"]) {
      expect(() => assertSupportedNode(version), version).not.toThrow();
    }
    expect(() => assertSupportedNode()).not.toThrow();
  });

  it("runs when the SDK is loaded: on Node.js 20 loading it fails at once", () => {
    const load = (version: string) =>
      spawnSync(
        process.execPath,
        [
          "--require",
          "tsx/cjs",
          "-e",
          `Object.defineProperty(process.versions, "node", { value: "${version}" }); require("./sdk");` +
            ` console.log("loaded");`,
        ],
        { cwd: ROOT, encoding: "utf8", timeout: 30_000 },
      );
    const old = load("20.20.2");
    expect(old.status).not.toBe(0);
    expect(old.stdout).not.toContain("loaded");
    expect(old.stderr).toContain(
      "Error: pulumi-devplatform needs Node.js 22 or later, but this is Node.js 20.20.2",
    );
    const current = load("22.0.0");
    expect(current.stderr).toBe("");
    expect(current.stdout.trim()).toBe("loaded");
  });
});
