/**
 * What people do to stacks, on the real CLI (stack-names.ts has the model's side): each runs
 * before the step's `up` and checks what it must hold itself — the namesake's `up` refused with no
 * write to the main stack's device and its `destroy` leaving none of its own, the export after
 * `pulumi stack rm --force` naming the removed stack and writing no owner tag, the new stack's
 * take-over one PUT per device. What the step's `up`s leave is then checked by every invariant
 * (an imported device of the second stack still the second stack's, and so on).
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { installedPluginDir } from "../e2e/support/front-ends";
import { writesOf } from "../e2e/support/platform-writes";
import { E2E_CREDENTIALS, PulumiProject, type PulumiContext } from "../e2e/support/pulumi-project";
import type { Model, NextWorlds } from "./model";
import { HARNESS_PROGRAM, writeWorld } from "./program";
import { DEFAULT_PREFIX, MAIN_PROJECT, OTHER_PREFIX, SECOND_PROJECT, type StackAction } from "./stack-names";
import { counted, type Stacks } from "./stacks";
import { declaredDevices, type World } from "./world";
import { pickOf } from "./world-edits";

const run = promisify(execFile);

/** What an action did, for the step's note, and what it broke. */
export interface ActionOutcome {
  note: string;
  violations: string[];
}

/** The namesake's own device: a serial number neither stack's pool holds. */
const namesakeSerial = (index: number): string =>
  `2400000D${(index % 0xffff).toString(16).toUpperCase().padStart(4, "0")}`;

const tail = (output: string): string => (output.length > 2000 ? `…${output.slice(-2000)}` : output);

/** Runs `command` and fails the action with its output when it exits non-zero. */
async function ok(what: string, command: Promise<{ exitCode: number; output: string }>): Promise<void> {
  const result = await command;
  if (result.exitCode !== 0) throw new Error(`${what} exited ${result.exitCode}:\n${tail(result.output)}`);
}

/** The stack configuration `PulumiProject.open` sets, for a stack initialised afresh. */
function configArgs(context: PulumiContext): string[] {
  return [
    "config",
    "set-all",
    "--plaintext",
    `devplatform:baseUrl=${context.emulatorUrl}`,
    "--plaintext",
    `devplatform:clientId=${E2E_CREDENTIALS.clientId}`,
    "--secret",
    `devplatform:clientSecret=${E2E_CREDENTIALS.clientSecret}`,
  ];
}

/** Writes on the first application while `command` runs. */
async function writesDuring<T>(
  stacks: Stacks,
  command: () => Promise<T>,
): Promise<[T, Record<string, number>]> {
  await stacks.control.resetCounters();
  const result = await counted(stacks, command);
  return [result, writesOf((await stacks.control.counters()).byRoute)];
}

/**
 * A stack of the main stack's project and name on a second (file) backend declaring one of the main
 * stack's devices in a fleet, beside a Device of its own: its `up` must fail naming the main stack,
 * with no PUT or DELETE; its `destroy` must leave none of its own devices.
 */
async function namesake(
  context: PulumiContext,
  stacks: Stacks,
  index: number,
  pick: number,
  model: Readonly<Model>,
): Promise<ActionOutcome> {
  const claimed = pickOf(declaredDevices(model.main), pick)?.decl;
  if (!claimed) throw new Error("namesake: no device to declare (the precondition should have said so)");
  const own = namesakeSerial(index);
  const project = await counted(stacks, () =>
    PulumiProject.create(
      {
        name: MAIN_PROJECT,
        program: HARNESS_PROGRAM,
        pluginPath: installedPluginDir(context.nodeModules),
        // Another machine's: its one-owner record is not the main stack's.
        env: { DEVPLATFORM_OWNERSHIP_DIR: path.join(context.workDir, `namesake-owners-${index}`) },
      },
      context,
    ),
  );
  const { names } = model;
  if (names.main !== "dev") await ok("namesake: stack rename", project.cli(["stack", "rename", names.main]));
  if (names.mainPrefix !== DEFAULT_PREFIX)
    await ok(
      "namesake: config set",
      project.cli(["config", "set", "devplatform:ownerTag", names.mainPrefix]),
    );
  const world: World = {
    fleets: [{ name: "sensors", front: pick % 2 === 0 ? "dynamic" : "plugin", devices: [claimed] }],
    devices: [{ resource: "namesake-own", front: "dynamic", sn: own, name: "namesake-own" }],
    rps: [],
    configs: [],
  };
  writeWorld(project.dir, world);
  const violations: string[] = [];
  const [up, upWrites] = await writesDuring(stacks, () => project.up());
  const what = `namesake of ${MAIN_PROJECT}/${names.main} on a second backend declaring ${claimed.sn}`;
  if (up.exitCode === 0) violations.push(`one owner: the ${what} exited 0:\n${tail(up.output)}`);
  else if (
    !/managed by stack "\S*harness-main\/\S+@[a-z2-7]{8}".*same name on another backend/.test(up.output)
  )
    violations.push(
      `one owner: the ${what} failed without naming the main stack's instance:\n${tail(up.output)}`,
    );
  const foreign = Object.keys(upWrites).filter((route) => !route.startsWith("POST /devices"));
  if (foreign.length > 0) violations.push(`one owner: the ${what} wrote ${JSON.stringify(upWrites)}`);
  const [destroy, destroyWrites] = await writesDuring(stacks, () => project.destroy());
  if (destroy.exitCode !== 0)
    violations.push(`destroy of the namesake exited ${destroy.exitCode}:\n${tail(destroy.output)}`);
  const left = (await stacks.control.state()).devices.filter((d) => d.sn.toUpperCase() === own);
  if (left.length > 0)
    violations.push(`destroy leaves none of its own: the namesake's ${own} is still on the platform`);
  const note = `namesake up exit ${up.exitCode} ${JSON.stringify(upWrites)}, destroy ${JSON.stringify(destroyWrites)}; `;
  return { note, violations };
}

/**
 * `pulumi stack rm --force` of the second stack, `devplatform export --take-over` of the
 * application, and a new second stack whose fleet takes over the removed stack's devices (its
 * world, stack-names.ts). The export must name the removed stack and write no owner tag.
 */
async function removeAndExport(
  context: PulumiContext,
  stacks: Stacks,
  index: number,
  model: Readonly<Model>,
  worlds: NextWorlds,
): Promise<ActionOutcome> {
  await ok(
    "stack rm --force",
    counted(stacks, () => stacks.second.cli(["stack", "rm", "--force", "--yes"])),
  );
  const out = path.join(mkdtempSync(path.join(context.workDir, "harness-export-")), "exported");
  const { stdout } = await run(
    path.join(context.nodeModules, ".bin", "devplatform"),
    ["export", "--out", out, "--take-over"],
    {
      env: {
        ...process.env,
        DEVPLATFORM_BASE_URL: context.emulatorUrl,
        DEVPLATFORM_CLIENT_ID: E2E_CREDENTIALS.clientId,
        DEVPLATFORM_CLIENT_SECRET: E2E_CREDENTIALS.clientSecret,
      },
    },
  );
  const violations: string[] = [];
  const removed = `${SECOND_PROJECT}/${model.names.second}@`;
  if (!/carry the owner tag of another stack/.test(stdout) || !stdout.includes(removed))
    violations.push(`export after stack rm --force: does not name ${removed}…:\n${tail(stdout)}`);
  const inventory = readFileSync(path.join(out, "inventory.csv"), "utf8");
  if (inventory.includes(DEFAULT_PREFIX) || inventory.includes(OTHER_PREFIX))
    violations.push(`export after stack rm --force: inventory.csv holds an owner tag:\n${tail(inventory)}`);
  await ok(
    "stack init",
    counted(stacks, () => stacks.second.cli(["stack", "init", worlds.names.second])),
  );
  await ok(
    "config set-all",
    counted(stacks, () => stacks.second.cli(configArgs(context))),
  );
  return { note: `second stack removed, exported, re-created as ${worlds.names.second}; `, violations };
}

/** Runs `action` of step `index` before its `up`s. */
export async function runStackAction(
  context: PulumiContext,
  stacks: Stacks,
  step: { action: StackAction; pick: number },
  index: number,
  model: Readonly<Model>,
  worlds: NextWorlds,
): Promise<ActionOutcome> {
  switch (step.action) {
    case "rename":
      await ok(
        "stack rename",
        counted(stacks, () => stacks.main.cli(["stack", "rename", worlds.names.main])),
      );
      return { note: `renamed ${worlds.names.main}; `, violations: [] };
    case "owner-tag": {
      const prefix = worlds.names.mainPrefix;
      const args =
        prefix === DEFAULT_PREFIX
          ? ["config", "rm", "devplatform:ownerTag"]
          : ["config", "set", "devplatform:ownerTag", prefix];
      await ok(
        "ownerTag",
        counted(stacks, () => stacks.main.cli(args)),
      );
      return { note: `ownerTag ${prefix}; `, violations: [] };
    }
    case "namesake":
      return namesake(context, stacks, index, step.pick, model);
    case "import": {
      const sn = pickOf(model.second.fleets[0]?.devices ?? [], step.pick)?.sn ?? "";
      const id = model.ids.get(sn.toUpperCase());
      if (id === undefined) throw new Error(`import: no deviceId of ${sn} in the model`);
      const [result, writes] = await writesDuring(stacks, () =>
        stacks.main.import("devplatform:index:Device", `imported-${index}`, id),
      );
      const violations =
        Object.keys(writes).length > 0
          ? [`import of ${sn} (the second stack's) wrote ${JSON.stringify(writes)}`]
          : [];
      // Never "will be given" alone: the import says whose device it is and that no up retags it.
      const whose =
        /managed by stack "\S*harness-second\/\S+".*not by this stack: the next up will not give it/;
      if (result.exitCode === 0 && !whose.test(result.output))
        violations.push(
          `import of ${sn} (the second stack's) did not name its stack:\n${tail(result.output)}`,
        );
      // `pulumi import` protects what it imports; the program does not declare it, so the `up` deletes it.
      if (result.exitCode === 0)
        await ok(
          "state unprotect",
          counted(stacks, () => stacks.main.cli(["state", "unprotect", "--all", "--yes"])),
        );
      return { note: `imported ${sn}: exit ${result.exitCode}; `, violations };
    }
    case "rm-takeover":
      return removeAndExport(context, stacks, index, model, worlds);
  }
}

/**
 * After the main stack's `up` of an `rm-takeover` step: the new second stack's `up`, which takes
 * over the removed stack's devices with one PUT each and nothing else.
 */
export async function takeOverUp(stacks: Stacks, worlds: NextWorlds): Promise<ActionOutcome> {
  const devices = worlds.second.fleets[0]?.devices.length ?? 0;
  const [up, writes] = await writesDuring(stacks, () => stacks.second.up());
  const violations: string[] = [];
  if (up.exitCode !== 0)
    violations.push(`take-over: the new second stack's up exited ${up.exitCode}:\n${tail(up.output)}`);
  else if (JSON.stringify(writes) !== JSON.stringify({ "PUT /devices": devices }))
    violations.push(
      `take-over: the new second stack's up wrote ${JSON.stringify(writes)}, not ${devices} PUT`,
    );
  return { note: `take-over up exit ${up.exitCode} ${JSON.stringify(writes)}`, violations };
}
