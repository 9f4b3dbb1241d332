/**
 * The random-operations harness on the real Pulumi CLI (test/random-operations/): a fixed seed and
 * a fixed number of steps, and a fixed sequence of the stack operations the seed leaves out
 * (ci-budget.ts), each run by the very command a failure report prints for its replay — `npm run
 * soak -- --seed SEED --steps STEPS` and `--sequence FILE`, here with `--reuse` on this run's toolchain —
 * against an emulator of its own. It stops at the first step that breaks an invariant and prints
 * the seed, the step and the sequence (no shrinking here: each try is a full replay;
 * `npm run soak -- --shrink` does it).
 */
import { spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { DevicePlatformClient } from "../../sdk";
import { CI_SEED, CI_STACK_SEQUENCE, CI_STEPS } from "../random-operations/ci-budget";
import { deployInitial } from "../random-operations/cli-executor";
import { initialModel } from "../random-operations/model";
import { writeWorld } from "../random-operations/program";
import { regionalSerial, SECOND_APPLICATION } from "../random-operations/regions";
import { applicable } from "../random-operations/runner";
import { sequenceJson } from "../random-operations/sequence-file";
import { checkStep } from "../random-operations/step-checks";
import { stepsOf } from "../random-operations/steps";
import { mainSerial, otherFront, rpsSerial } from "../random-operations/world";
import { E2E_CREDENTIALS } from "./support/pulumi-project";
import { e2e } from "./support/e2e-context";

const repoRoot = path.resolve(__dirname, "../..");

/** The invariants by name, as their violations start. */
const INVARIANTS = [
  "platform = declared",
  "platform = declared (second application)",
  "managed values",
  "versions",
  "deviceId kept",
  "state ids",
  "state = declared",
  "preview --expect-no-changes",
  "refresh --expect-no-changes",
];

/** Runs the soak command on this run's toolchain; resolves with its exit code and output. */
function soak(args: string[]): Promise<{ exitCode: number; output: string }> {
  const tsx = path.join(repoRoot, "node_modules", "tsx", "dist", "cli.mjs");
  const script = path.join(repoRoot, "test", "random-operations", "soak.ts");
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [tsx, script, "--reuse", e2e().workDir, ...args], {
      cwd: repoRoot,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    const echo = (chunk: Buffer) => {
      output += chunk.toString();
      process.stdout.write(chunk);
    };
    child.stdout.on("data", echo);
    child.stderr.on("data", echo);
    child.on("error", reject);
    child.on("close", (code) => resolve({ exitCode: code ?? 1, output }));
  });
}

describe("random operations on the real CLI", () => {
  let emulator: RunningEmulator;
  let secondEmulator: RunningEmulator;

  beforeAll(async () => {
    emulator = await startEmulator({ control: true });
    secondEmulator = await startEmulator({ control: true, ...SECOND_APPLICATION });
  });
  afterAll(async () => {
    await emulator.stop();
    await secondEmulator.stop();
  });

  it(`keeps every invariant for ${CI_STEPS} steps of seed ${CI_SEED}`, async () => {
    const { exitCode, output } = await soak(["--seed", String(CI_SEED), "--steps", String(CI_STEPS)]);
    if (exitCode !== 0) expect.fail(output.slice(-12_000));
    // The replay command ran exactly the steps whose preconditions hold on the model: those
    // ci-budget.ts promises (checked in test/unit/random-operations-replay.test.ts).
    const ran = applicable(stepsOf(CI_SEED, CI_STEPS)).length;
    expect(output).toMatch(new RegExp(`^${ran} steps run, ${CI_STEPS - ran} skipped`, "m"));
  });

  // What the seed leaves out of the stack operations (a rename, a namesake of the renamed stack on a
  // second backend, a fleet under another parent), by the replay command of a printed sequence.
  it("keeps every invariant through a stack rename and a namesake on a second backend", async () => {
    const file = path.join(mkdtempSync(path.join(e2e().workDir, "ci-sequence-")), "sequence.json");
    writeFileSync(file, sequenceJson(CI_STACK_SEQUENCE));
    const { exitCode, output } = await soak(["--sequence", file]);
    if (exitCode !== 0) expect.fail(output.slice(-12_000));
    expect(output).toMatch(new RegExp(`^${CI_STACK_SEQUENCE.length} steps run, 0 skipped`, "m"));
    expect(output).toMatch(/^operations: .*stack renamed 1, .*namesake on a second backend 1/m);
  });

  // The harness's own test: each invariant catches the platform (or the declaration) broken on purpose.
  it("catches every invariant broken on purpose", async () => {
    const context = { ...e2e(), emulatorUrl: emulator.url };
    const model = initialModel();
    const secondApp = { url: secondEmulator.url, control: secondEmulator.control };
    const stacks = await deployInitial(context, emulator.control, secondApp, model);
    const control = emulator.control;
    const idOf = async (sn: string) => {
      const device = (await control.state()).devices.find((d) => d.sn === sn);
      if (!device) throw new Error(`${sn} is not on the platform`);
      return device.deviceId;
    };
    // Renamed out of band (platform = declared; refresh sees drift).
    await control.changeDevice(await idOf(mainSerial(0)), { name: "renamed-out-of-band" });
    // Deleted and added again as declared: a new deviceId (deviceId kept; state ids).
    await control.deleteDevice(await idOf(mainSerial(1)));
    await control.seedDevice({ sn: mainSerial(1), name: "device-1" });
    // A device declared nowhere, and an RPS record's URL changed (platform = declared).
    await control.seed({
      devices: [{ sn: mainSerial(20), name: "stray" }],
      rpsRecords: [{ sn: rpsSerial(0), profileUrl: "https://rps.example.com/elsewhere" }],
    });
    // A device on the second application that no world declares there (platform = declared, second application).
    await secondEmulator.control.seedDevice({ sn: regionalSerial("us", 9), name: "stray-us" });
    // A managed value changed (managed values).
    await control.changeDevice(await idOf(mainSerial(3)), { properties: { reportInterval: 60 } });
    // A task of another version, through the platform's API (versions).
    const client = new DevicePlatformClient({ baseUrl: emulator.url, ...E2E_CREDENTIALS });
    await client.createConfigTasks({
      type: "TSL",
      deviceIds: [await idOf(mainSerial(2))],
      config: { version: "99", properties: { reportInterval: 900 } },
    });
    // A declaration the stack has not deployed (preview --expect-no-changes), and a Device the
    // model believes moved to the other front-end (state = declared).
    const rps = model.main.rps[1];
    if (rps) rps.profileUrl = "https://rps.example.com/declared-not-deployed";
    writeWorld(stacks.main.dir, model.main);
    const device = model.main.devices[0];
    if (device) device.front = otherFront(device.front);

    const violations = await checkStep(stacks, model, new Set(), true);
    const caught = INVARIANTS.filter((name) => violations.some((v) => v.startsWith(name)));
    expect(caught, violations.join("\n")).toEqual(INVARIANTS);
  });
});
