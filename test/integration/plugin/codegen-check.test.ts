/**
 * `npm run codegen -- --check` (what CI runs): passes on SDKs generated from the schema, and fails
 * naming every file of a copy that was edited, deleted or added by hand, or that a schema change
 * made stale. Runs the real generator (built once into the cache, as CI builds it).
 */
import { execFile } from "node:child_process";
import { appendFileSync, cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const repoRoot = path.resolve(__dirname, "../../..");

/** Runs scripts/codegen.sh; answers its exit code and what it printed. */
async function codegen(args: string[]): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)("bash", ["scripts/codegen.sh", ...args], {
      cwd: repoRoot,
    });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? 1, output: `${failed.stdout ?? ""}${failed.stderr ?? ""}` };
  }
}

describe("the SDK check against schema.json", () => {
  let dir: string;
  let sdks: string;

  // The first run on a machine builds the generator from Go modules (minutes); later runs reuse it.
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), "devplatform-codegen-"));
    sdks = path.join(dir, "plugin-sdks");
    cpSync(path.join(repoRoot, "plugin-sdks"), sdks, {
      recursive: true,
      filter: (source) => !source.split(path.sep).includes("bin"),
    });
    await codegen(["--check", "--out", sdks]);
  }, 30 * 60_000);

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("passes on the committed SDKs", async () => {
    const check = await codegen(["--check", "--out", sdks]);
    expect(check.output).toContain("match schema.json");
    expect(check.code).toBe(0);
  });

  it("fails naming each file edited, deleted or added by hand", async () => {
    appendFileSync(path.join(sdks, "nodejs", "device.ts"), "// edited by hand\n");
    appendFileSync(path.join(sdks, "go", "devplatform", "rpsProfile.go"), "// edited by hand\n");
    rmSync(path.join(sdks, "python", "pulumi_devplatform", "rps_profile.py"));
    writeFileSync(path.join(sdks, "nodejs", "extra.ts"), "export {};\n");
    const check = await codegen(["--check", "--out", sdks]);
    expect(check.code).toBe(1);
    expect(check.output).toContain(`differs:   ${path.join(sdks, "nodejs", "device.ts")}`);
    expect(check.output).toContain(
      `missing:   ${path.join(sdks, "python", "pulumi_devplatform", "rps_profile.py")}`,
    );
    expect(check.output).toContain(`differs:   ${path.join(sdks, "go", "devplatform", "rpsProfile.go")}`);
    expect(check.output).toContain(`not generated: ${path.join(sdks, "nodejs", "extra.ts")}`);
  });

  it("passes again once regenerated", async () => {
    expect((await codegen(["--out", sdks])).code).toBe(0);
    expect((await codegen(["--check", "--out", sdks])).code).toBe(0);
  });

  it("fails when the schema changed and the SDKs were not regenerated", async () => {
    const schema = JSON.parse(readFileSync(path.join(repoRoot, "schema.json"), "utf8")) as {
      resources: Record<string, { description?: string }>;
    };
    const device = schema.resources["devplatform:index:Device"];
    if (!device) throw new Error("schema.json has no Device");
    device.description = `${device.description ?? ""} Changed.`;
    const changed = path.join(dir, "schema.json");
    writeFileSync(changed, JSON.stringify(schema));
    const check = await codegen(["--check", "--schema", changed, "--out", sdks]);
    expect(check.code).toBe(1);
    expect(check.output).toContain(`differs:   ${path.join(sdks, "nodejs", "device.ts")}`);
    expect(check.output).toContain(
      `differs:   ${path.join(sdks, "python", "pulumi_devplatform", "device.py")}`,
    );
    expect(check.output).toContain(`differs:   ${path.join(sdks, "go", "devplatform", "device.go")}`);
  });
});
