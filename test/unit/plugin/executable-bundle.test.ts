/**
 * The plugin's executable loads only what it serves: its bundle holds the gRPC library, the
 * protocol's generated stubs and this project's code, never the rest of `@pulumi/pulumi` (whose
 * loading was most of the old launcher's start), and it runs as a plain script with nothing beside it.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { bundlePlugin } from "../../../scripts/plugin-executable/bundle";

describe("the plugin's bundle", () => {
  it("holds @pulumi/pulumi's stubs only, answers --version with the given version, from a directory of its own", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "plugin-bundle-"));
    const bundle = path.join(dir, "plugin.js");
    const report = await bundlePlugin(bundle, "9.8.7");
    const names = report.packages.map((p) => p.name);
    expect(names).toEqual(
      expect.arrayContaining(["@grpc/grpc-js", "google-protobuf", "@pulumi/pulumi", "(this project)"]),
    );
    // What @pulumi/pulumi contributes is its proto/ stubs (bundle.ts fails the build otherwise):
    // a few hundred kB, against megabytes for the SDK with its dependencies.
    const stubs = report.packages.find((p) => p.name === "@pulumi/pulumi")?.bytes ?? 0;
    expect(stubs).toBeLessThan(400_000);
    expect(report.bytes).toBeLessThan(4_000_000);
    expect(execFileSync(process.execPath, [bundle, "--version"], { cwd: dir, encoding: "utf8" }).trim()).toBe(
      "9.8.7",
    );
  }, 30_000);
});
