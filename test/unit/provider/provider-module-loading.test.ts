/**
 * What the program loads of the package (provider/dynamic/provider-module.ts): importing it and a
 * kind's provider module, as a program constructing an RpsFleet does, loads no kind's
 * implementation and no platform client — the program never calls them, and loading them cost a
 * batch's no-change preview CPU its floor does not pay. The stand-in's methods still reach the
 * kind's implementation on their first call.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(__dirname, "../../..");

/** The package's own modules a fresh Node.js process has loaded after `script`. */
function ownModulesAfter(script: string): string[] {
  const probe =
    `${script};` +
    "console.log(JSON.stringify(Object.keys(require.cache).filter((f) => !f.includes('node_modules'))" +
    `.map((f) => require('node:path').relative(${JSON.stringify(ROOT)}, f))))`;
  const out = execFileSync(process.execPath, ["--import", "tsx", "-e", probe], {
    cwd: ROOT,
    encoding: "utf8",
  });
  return JSON.parse(out.trim().split("\n").at(-1) ?? "[]") as string[];
}

describe("the package as a program loads it", () => {
  it("loads no kind implementation and no platform client for the package and a kind's provider module", () => {
    const loaded = ownModulesAfter(
      "require('./provider/index.ts'); require('./provider/dynamic/providers/rps-fleet.ts')",
    );
    expect(loaded).toContain(path.join("provider", "dynamic", "providers", "rps-fleet.ts"));
    const heavy = loaded.filter((file) =>
      [
        path.join("provider", "kinds.ts"),
        path.join("provider", "dynamic", "implementations.ts"),
        path.join("provider", "rps-fleet", "provider.ts"),
        path.join("sdk", "client.ts"),
        path.join("sdk", "transport.ts"),
      ].includes(file),
    );
    expect(heavy).toEqual([]);
  });

  it("reaches the kind's implementation on a stand-in's first call: a bad record fails its check", () => {
    const out = execFileSync(
      process.execPath,
      [
        "--import",
        "tsx",
        "-e",
        "const m = require('./provider/dynamic/providers/rps-fleet.ts');" +
          "const c = { 'devplatform:baseUrl': 'https://platform.example.com', 'devplatform:clientId': 'id', " +
          "'devplatform:clientSecret': 's' };" +
          "m.configure({ config: { get: (k) => c[k], require: (k) => c[k] } })" +
          ".then(() => m.check({}, { fleetName: 'b', records: " +
          "JSON.stringify([{ sn: '12', profileUrl: 'https://rps.example.com/a' }]) }))" +
          ".then((r) => console.log(JSON.stringify(r.failures.map((f) => f.reason))))",
      ],
      { cwd: ROOT, encoding: "utf8" },
    );
    expect(out).toMatch(/records\[0\]\.sn/);
  });
});

/**
 * The package's modules (and the packages) Pulumi's dynamic provider host has loaded after it
 * deserialized a kind's provider and `script` ran: the probe runs as the host's main module
 * (`…/cmd/dynamic-provider/index.js`), which is how provider-module.ts knows it is in the host.
 */
function hostModulesAfter(kindModule: string, script: string): { own: string[]; packages: string[] } {
  const dir = mkdtempSync(path.join(tmpdir(), "dynamic-host-"));
  const main = path.join(dir, "cmd", "dynamic-provider", "index.js");
  mkdirSync(path.dirname(main), { recursive: true });
  writeFileSync(
    main,
    `const m = require(${JSON.stringify(path.join(ROOT, kindModule))});\n` +
      `Promise.resolve().then(() => (${script})(m)).then(() => {\n` +
      "  const files = Object.keys(require.cache);\n" +
      "  const own = files.filter((f) => !f.includes('node_modules'))" +
      `.map((f) => require('node:path').relative(${JSON.stringify(ROOT)}, f));\n` +
      "  const packages = [...new Set(files.filter((f) => f.includes('node_modules'))" +
      ".map((f) => f.split(/node_modules[\\\\/]/).at(-1).split(/[\\\\/]/)[0]))];\n" +
      "  console.log(JSON.stringify({ own, packages }));\n" +
      "});\n",
  );
  try {
    const out = execFileSync(process.execPath, ["--import", "tsx", main], { cwd: ROOT, encoding: "utf8" });
    return JSON.parse(out.trim().split("\n").at(-1) ?? "{}") as { own: string[]; packages: string[] };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe("the package as the dynamic provider host loads it", () => {
  it("loads the one kind it serves, and no SDK client, HTTP pool or zod, through a check that sends nothing", () => {
    const { own, packages } = hostModulesAfter(
      "provider/dynamic/providers/rps-fleet.ts",
      "async (m) => { const c = { 'devplatform:baseUrl': 'https://platform.example.com', " +
        "'devplatform:clientId': 'id', 'devplatform:clientSecret': 's' };" +
        "await m.configure({ config: { get: (k) => c[k], require: (k) => c[k] } });" +
        "const r = await m.check({}, { fleetName: 'b', records: " +
        "JSON.stringify([{ sn: '24E100000001', profileUrl: 'https://rps.example.com/a' }]) });" +
        "if (r.failures.length) throw new Error(JSON.stringify(r.failures)); }",
    );
    expect(own).toContain(path.join("provider", "rps-fleet", "provider.ts"));
    const otherKinds = ["device", "device-fleet", "rps-profile", "device-config", "functions"].filter(
      (folder) =>
        own.some(
          (file) => file.startsWith(path.join("provider", folder) + path.sep) && file.endsWith("provider.ts"),
        ),
    );
    expect(otherKinds).toEqual([]);
    expect(own.filter((file) => file.startsWith(path.join("provider", "functions")))).toEqual([]);
    expect(
      own.filter((file) =>
        [
          path.join("sdk", "client.ts"),
          path.join("sdk", "transport.ts"),
          path.join("sdk", "index.ts"),
        ].includes(file),
      ),
    ).toEqual([]);
    expect(packages.filter((name) => ["undici", "zod"].includes(name))).toEqual([]);
  });
});
