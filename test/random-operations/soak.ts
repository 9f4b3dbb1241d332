/**
 * `npm run soak [-- --seed S] [--steps N] [--shrink] [--shrink-replays R] [--sequence FILE]`: the
 * random-operations harness outside vitest, on the same toolchain as the e2e tests (the CLI, this
 * package packed and installed as users install it) and an emulator of its own (two: the second
 * application's, regions.ts). The first N steps
 * of a seed are the same whatever N, so `--steps` replays a failure and extends a run. `--shrink`
 * looks for a shorter failing sequence, at most R full replays (default 20). `--sequence FILE`
 * replays a printed JSON sequence (a shrunk one, say). `--reuse DIR` runs on the toolchain an earlier
 * soak prepared in DIR (printed at its start) instead of building and packing the package again.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { startEmulator } from "../../emulator";
import { prepareToolchain, type Toolchain } from "../e2e/support/toolchain";
import { CliExecutor } from "./cli-executor";
import { operationsOf } from "./coverage";
import { SECOND_APPLICATION } from "./regions";
import { describeFailure, runSequence, shrinkFailure } from "./runner";
import { readSequence, sequenceJson } from "./sequence-file";
import { describeStep, stepsOf, type Step } from "./steps";

function wholeNumber(name: string, value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`--${name} must be a whole number, got ${value}`);
  return n;
}

/** The toolchain an earlier soak prepared in `dir`: its CLI, tarball and installed node_modules. */
function reusedToolchain(dir: string): Toolchain {
  const nodeModules = path.join(dir, "template", "node_modules");
  const tarball = readdirSync(path.join(dir, "pack")).find((f) => f.endsWith(".tgz"));
  const pulumiDir = execFileSync("bash", ["scripts/provision-pulumi.sh"], {
    cwd: path.resolve(__dirname, "../.."),
    encoding: "utf8",
  }).trim();
  if (!existsSync(nodeModules) || !tarball || !existsSync(path.join(pulumiDir, "pulumi")))
    throw new Error(
      `--reuse ${dir}: no toolchain prepared there (template/node_modules, pack/*.tgz, the CLI)`,
    );
  return { pulumiDir, nodeModules, tarball: path.join(dir, "pack", tarball) };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      seed: { type: "string", default: String(Date.now() % 2 ** 31) },
      steps: { type: "string", default: "40" },
      shrink: { type: "boolean", default: false },
      "shrink-replays": { type: "string", default: "20" },
      sequence: { type: "string" },
      reuse: { type: "string" },
    },
  });
  const seed = wholeNumber("seed", values.seed);
  const steps: Step[] = values.sequence
    ? readSequence(readFileSync(values.sequence, "utf8"))
    : stepsOf(seed, wholeNumber("steps", values.steps));
  const workDir = values.reuse ?? mkdtempSync(path.join(tmpdir(), "devplatform-soak-"));
  console.log(`${values.reuse ? "reusing" : "preparing"} the toolchain in ${workDir} …`);
  const toolchain = values.reuse ? reusedToolchain(values.reuse) : prepareToolchain(workDir);
  const emulator = await startEmulator({ control: true });
  // The second application, of the main stack's `us` provider (regions.ts).
  const secondEmulator = await startEmulator({ control: true, ...SECOND_APPLICATION });
  const secondApp = { url: secondEmulator.url, control: secondEmulator.control };
  const context = { ...toolchain, workDir, emulatorUrl: emulator.url };
  // Each run (and each replay of --shrink) on fresh stacks against the emulators, reset.
  const replay = (sequence: Step[], onStep?: (line: string) => void) =>
    runSequence(sequence, new CliExecutor(context, emulator.control, secondApp), onStep);
  try {
    console.log(
      values.sequence
        ? `sequence ${values.sequence}: ${steps.length} steps`
        : `seed ${seed}: ${steps.length} steps`,
    );
    const outcome = await replay(steps, (line) => console.log(line));
    console.log(
      `${outcome.stepsRun} steps run, ${outcome.skipped} skipped (precondition), ${outcome.commands} CLI commands, ${outcome.seconds.toFixed(0)} s`,
    );
    // What of the one-owner class the steps that ran held (up to a failure: those before it and it).
    const held = operationsOf(outcome.failure?.sequence ?? steps);
    console.log(`operations: ${[...held].map(([operation, n]) => `${operation} ${n}`).join(", ")}`);
    if (!outcome.failure) return;
    console.log(describeFailure(values.sequence ? undefined : seed, outcome.failure));
    if (values.shrink) {
      const shrunk = await shrinkFailure(
        outcome.failure.sequence,
        outcome.failure.violations,
        (sequence) => replay(sequence),
        wholeNumber("shrink-replays", values["shrink-replays"]),
        (line) => console.log(line),
      );
      console.log(`shrunk to ${shrunk.sequence.length} steps in ${shrunk.replays} replays:`);
      for (const v of shrunk.violations) console.log(`  ✗ ${v}`);
      shrunk.sequence.forEach((step, i) => console.log(`  ${i + 1}. ${describeStep(step)}`));
      console.log(`as JSON (--sequence FILE): ${sequenceJson(shrunk.sequence)}`);
    }
    process.exitCode = 1;
  } finally {
    await emulator.stop();
    await secondEmulator.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
