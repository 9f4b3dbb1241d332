/**
 * docs/from-a-checkout.md as a newcomer follows it, per language: the page's own marked blocks
 * (`support/walkthrough.ts` reads them from the page; nothing is copied here), each language in a
 * fresh `PULUMI_HOME` with an empty plugin cache and a fresh `WORK`, run from this checkout with
 * automatic plugin acquisition on. Python, YAML and Go run with no Node.js 22 on `PATH`.
 *
 * One thing differs from the page, named here: the emulator. Step 1's block starts one on port
 * 8080 in a terminal of its own; the test uses its file's emulator (started with the control API,
 * as the page's block says `--control`, which this test checks) and rewrites the page's
 * `http://127.0.0.1:8080` to its URL. The archive step is the cached build of the release test
 * when the sources are unchanged (the script's cache), so its cost is paid once per suite.
 */
import { mkdtempSync, readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { EmulatorControl } from "../../emulator";
import { e2e } from "./support/e2e-context";
import { runWalkthrough, walkthrough, type WalkthroughRun } from "./support/walkthrough";
import { pathWithoutNode22 } from "./support/without-node";

const repoRoot = path.resolve(__dirname, "../..");
const PAGE = path.join(repoRoot, "docs", "from-a-checkout.md");
const PAGE_EMULATOR = "http://127.0.0.1:8080";

/** The environment of a newcomer's shell: none of this suite's Pulumi or project settings. */
function newcomerEnv(pulumiHome: string, work: string, withNode: boolean): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env))
    if (value !== undefined && !/^(PULUMI_|DEVPLATFORM_|VIRTUAL_ENV)/.test(key)) env[key] = value;
  const first = [e2e().pulumiDir];
  return {
    ...env,
    PATH: withNode ? [...first, process.env.PATH ?? ""].join(path.delimiter) : pathWithoutNode22(first),
    PULUMI_HOME: pulumiHome,
    PULUMI_SKIP_UPDATE_CHECK: "true",
    WORK: work,
  };
}

describe("docs/from-a-checkout.md, followed as written", () => {
  let control: EmulatorControl;
  const timings: string[] = [];

  beforeAll(() => {
    control = new EmulatorControl(e2e().emulatorUrl);
    return () => console.log(["walkthrough steps (seconds):", ...timings].join("\n"));
  });

  it("starts its emulator with the control API the drift step uses", () => {
    const [emulator] = walkthrough(PAGE, ["emulator"]);
    expect(emulator?.commands).toMatch(/^scripts\/emulator\.sh .*--control/);
    expect(emulator?.commands).toContain("--port 8080");
  });

  async function follow(language: string, withNode: boolean): Promise<WalkthroughRun> {
    const blocks = walkthrough(PAGE, ["all", language]);
    expect(blocks.filter((b) => b.name === language).length).toBeGreaterThan(0);
    const dir = mkdtempSync(path.join(e2e().workDir, `walkthrough-${language}-`));
    const env = newcomerEnv(path.join(dir, "pulumi-home"), path.join(dir, "work"), withNode);
    const run = await runWalkthrough(blocks, repoRoot, env, { [PAGE_EMULATOR]: e2e().emulatorUrl });
    timings.push(`${language}:`, ...run.steps.map((s) => `  ${s.seconds.toFixed(1)}  ${s.first}`));
    if (run.code !== 0) throw new Error(`the ${language} walkthrough failed (${run.code}):\n${run.output}`);
    return run;
  }

  /** The starting project's serial number, from its program. */
  const serialOf = (file: string) =>
    /"(2400[0-9A-F]{8})"/.exec(readFileSync(path.join(repoRoot, file), "utf8"))?.[1];

  it("Python: a wheel, a served archive, up, drift repaired, destroy (no Node.js)", async () => {
    const run = await follow("python", false);
    expect(run.output).toContain("renamed-by-hand");
    const sn = serialOf("examples/start-python/__main__.py");
    expect((await control.state()).devices.find((d) => d.sn === sn)).toBeUndefined();
  });

  it("YAML: the archive installed, up, destroy (no Node.js)", async () => {
    await follow("yaml", false);
    const sn = serialOf("examples/start-yaml/Pulumi.yaml");
    expect((await control.state()).devices.find((d) => d.sn === sn)).toBeUndefined();
  });

  it("Go: the checkout's SDK by replace, up, destroy (no Node.js)", async () => {
    await follow("go", false);
    const sn = serialOf("examples/start-go/main.go");
    expect((await control.state()).devices.find((d) => d.sn === sn)).toBeUndefined();
  });

  it("TypeScript: the packed SDK in the starting project, up, destroy", async () => {
    await follow("typescript", true);
    const sn = serialOf("examples/start-typescript/index.ts");
    expect((await control.state()).devices.find((d) => d.sn === sn)).toBeUndefined();
  });
});
