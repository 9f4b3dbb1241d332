/**
 * `npm run bench:growth -- [--devices 10000,100000]`: does one stack of 100,000 grow like one of
 * 10,000 (issue #48 item 5)? For each N, in one run on one machine: a dynamic DeviceFleet of N
 * against an emulator without a limit, with a pace directory of its own — its `up`, a no-change
 * preview, a refresh, an `up` renaming one device, and the size of the stack's state — then each
 * figure ÷ the first N's. Linear growth is N ÷ N₀ (10 for 100,000 beside 10,000); the issue asks
 * the `up` for at most 10.5 ×. Not in CI: 100,000 devices take the `up` alone about six minutes.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { startEmulator } from "../emulator";
import { assertOk, PulumiProject, type PulumiContext } from "../test/e2e/support/pulumi-project";
import { prepareToolchain, removeWorkDir } from "../test/e2e/support/toolchain";
import { ownPaceEnv } from "./own-pace";
import { fleetDevicesFile, FLEET_PROGRAM } from "./programs";
import { loadNow } from "./results";

/** The figures of one N: seconds of each command, and the state's size in bytes. */
interface Growth {
  readonly up: number;
  readonly preview: number;
  readonly refresh: number;
  readonly renameOne: number;
  readonly stateBytes: number;
  readonly load: string;
}

async function timed(command: () => Promise<Parameters<typeof assertOk>[0]>): Promise<number> {
  const started = performance.now();
  assertOk(await command());
  return (performance.now() - started) / 1000;
}

async function grow(n: number, base: Omit<PulumiContext, "emulatorUrl">): Promise<Growth> {
  const platform = await startEmulator({ control: true });
  try {
    const project = await PulumiProject.create(
      { name: `growth-${n}`, program: FLEET_PROGRAM },
      { ...base, emulatorUrl: platform.url },
    );
    const devices = path.join(project.dir, "fleet.json");
    writeFileSync(devices, fleetDevicesFile(n, "24AE"));
    const env = { PULUMI_SKIP_CHECKPOINTS: "true", ...ownPaceEnv() };
    const loadBefore = loadNow();
    const up = await timed(() => project.up({ env }));
    const preview = await timed(() => project.preview({ expectNoChanges: true }, { env }));
    const refresh = await timed(() => project.refresh({ env }));
    writeFileSync(devices, fleetDevicesFile(n, "24AE", Math.floor(n / 2)));
    const renameOne = await timed(() => project.up({ env }));
    const stateBytes = JSON.stringify(await project.exportStack()).length;
    return {
      up,
      preview,
      refresh,
      renameOne,
      stateBytes,
      load: `${loadBefore.toFixed(1)}–${loadNow().toFixed(1)}`,
    };
  } finally {
    await platform.stop();
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { devices: { type: "string", default: "10000,100000" } } });
  const sizes = (values.devices ?? "").split(",").map(Number);
  if (sizes.length === 0 || !sizes.every((n) => Number.isInteger(n) && n > 0))
    throw new Error(`--devices: a comma-separated list of positive whole numbers, not "${values.devices}"`);
  const workDir = mkdtempSync(path.join(tmpdir(), "bench-growth-"));
  try {
    const { pulumiDir, nodeModules } = prepareToolchain(workDir);
    const rows: [number, Growth][] = [];
    for (const n of sizes) {
      const growth = await grow(n, { pulumiDir, nodeModules, workDir });
      console.log(`${n}: ${JSON.stringify(growth)}`);
      rows.push([n, growth]);
    }
    const [n0, first] = rows[0] as [number, Growth];
    const ratio = (value: number, of: number) => `${value.toFixed(1)} (${(value / of).toFixed(2)} ×)`;
    console.log(
      `\n| devices (÷ ${n0}) | load | up s | no-change preview s | refresh s | up renaming one s | state MB |` +
        "\n|---|---|---|---|---|---|---|",
    );
    for (const [n, g] of rows)
      console.log(
        `| ${n} (${(n / n0).toFixed(0)} ×) | ${g.load} | ${ratio(g.up, first.up)} | ${ratio(g.preview, first.preview)} | ` +
          `${ratio(g.refresh, first.refresh)} | ${ratio(g.renameOne, first.renameOne)} | ` +
          `${(g.stateBytes / 1e6).toFixed(1)} (${(g.stateBytes / first.stateBytes).toFixed(2)} ×) |`,
      );
  } finally {
    removeWorkDir(workDir);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
