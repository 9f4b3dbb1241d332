/**
 * The one-owner record on the toolchain users run (Pulumi's own launcher and hosts, the emulator):
 * - it lives as long as its deployment: after an `up`, nothing is left of it, however the engine
 *   ended the provider processes;
 * - a deployment never takes a record that predates it: with a record left (as SIGKILLed processes
 *   leave it) for every ephemeral port, so also at the one the engine gets, holding a claim on the
 *   device and a spent quota, removing a Device deletes it with one DELETE and exits 0;
 * - only this package's provider processes are waited for: a plugin program with a
 *   `pulumi.dynamic.Resource` of its own (which starts Pulumi's dynamic provider host, never this
 *   package's) deletes a Device with one DELETE (the time of that `up` is what the wait cost:
 *   printed, not asserted — docs/guides/reliability.md gives the figures).
 * Request counts from the emulator's counters.
 */
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { EmulatorControl } from "../../emulator";
import { applicationKey, deploymentDirectory } from "../../provider/deployment/shared-record-paths";
import { e2e } from "./support/e2e-context";
import { createProject } from "./support/e2e-project";
import { serialNumbers } from "./support/fleet-programs";
import { createPluginProject } from "./support/plugin-programs";
import { writesOf } from "./support/platform-writes";
import { assertOk, E2E_CREDENTIALS } from "./support/pulumi-project";

let control: EmulatorControl;

beforeAll(() => {
  control = new EmulatorControl(e2e().emulatorUrl);
});

function devicesProgram(sns: readonly string[], extra = ""): string {
  return [
    `import * as pulumi from "pulumi-devplatform";`,
    ...sns.map(
      (sn) => `new pulumi.Device(${JSON.stringify(sn)}, { sn: ${JSON.stringify(sn)}, name: "life" });`,
    ),
    extra,
    "",
  ].join("\n");
}

/** A dynamic resource of the program's own (another package's, as far as the engine knows). */
const OWN_DYNAMIC = `
import * as sdk from "@pulumi/pulumi";
const ownProvider: sdk.dynamic.ResourceProvider = {
  async create(inputs: Record<string, unknown>) {
    return { id: "own-1", outs: inputs };
  },
};
new sdk.dynamic.Resource(ownProvider, "own-thing", { label: "mine" });
`;

async function platformIds(sns: readonly string[]): Promise<string[]> {
  return (await control.state()).devices.filter((d) => sns.includes(d.sn)).map((d) => d.deviceId);
}

/** The deployment directories under a record root. */
function deploymentsIn(root: string): string[] {
  try {
    return readdirSync(root).filter((name) => name.startsWith("deployment-"));
  } catch {
    return [];
  }
}

describe("the one-owner record after an up (dynamic)", () => {
  it("is gone once the up is over", async () => {
    const root = path.join(mkdtempSync(path.join(tmpdir(), "owners-life-")), "owners");
    const env = { DEVPLATFORM_OWNERSHIP_DIR: root };
    const [sn] = serialNumbers(1) as [string];
    const project = await createProject({ name: "record-after-up", program: devicesProgram([sn]), env });
    assertOk(await project.up());
    // The provider processes end with the CLI's run (its last ones a moment after it returns).
    await expect.poll(() => deploymentsIn(root), { timeout: 20_000, interval: 200 }).toEqual([]);
    assertOk(await project.destroy());
  });
});

describe("a record left at every ephemeral port (dynamic)", () => {
  it("is never taken by the deployment that gets one of them: the removed Device is deleted", async () => {
    const [sn] = serialNumbers(1) as [string];
    const root = path.join(mkdtempSync(path.join(tmpdir(), "owners-reused-")), "owners");
    const project = await createProject({
      name: "record-reused-port",
      program: devicesProgram([sn]),
      env: { DEVPLATFORM_OWNERSHIP_DIR: root },
    });
    assertOk(await project.up());
    const [deviceId] = await platformIds([sn]);
    expect(deviceId).toMatch(/^\d+$/);
    // Left by SIGKILLed processes of earlier deployments, keyed by the address alone (as before):
    // a claim on the device, the program having run, and a spent quota.
    const [low, high] = readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8")
      .trim()
      .split(/\s+/)
      .map(Number);
    const lines = [
      { t: "device-claim", deviceId, sn, owner: { kind: "Device" } },
      { t: "program-ran" },
      {
        t: "quota-exhausted",
        method: "POST",
        path: "/devices",
        status: 429,
        errCode: "quota_exhausted",
        at: 1,
      },
    ]
      .map((fact) => `${JSON.stringify(fact)}\n`)
      .join("");
    const netns = readlinkSync("/proc/self/ns/net");
    const saved = process.env.DEVPLATFORM_OWNERSHIP_DIR;
    process.env.DEVPLATFORM_OWNERSHIP_DIR = root;
    try {
      mkdirSync(root, { recursive: true, mode: 0o700 });
      const file = `${applicationKey(E2E_CREDENTIALS.clientId)}.424242.jsonl`;
      for (let port = low as number; port <= (high as number); port += 1) {
        const engineAddress = `127.0.0.1:${port}`;
        const directory = deploymentDirectory({ engineAddress });
        mkdirSync(directory, { recursive: true, mode: 0o700 });
        writeFileSync(path.join(directory, file), lines, { mode: 0o600 });
        writeFileSync(path.join(directory, "deployment.json"), JSON.stringify({ engineAddress, netns }));
      }
    } finally {
      process.env.DEVPLATFORM_OWNERSHIP_DIR = saved;
    }
    try {
      project.setProgram(devicesProgram([]));
      await control.resetCounters();
      const up = await project.up();
      assertOk(up);
      expect(writesOf((await control.counters()).byRoute)).toEqual({ "DELETE /devices/{deviceId}": 1 });
      expect(await platformIds([sn])).toEqual([]);
    } finally {
      // A record at each of ~28,000 ports: hundreds of megabytes, outside the run's work directory.
      rmSync(path.dirname(root), { recursive: true, force: true });
    }
  });
});

describe("a plugin program with a dynamic resource of its own", () => {
  it("deletes a Device with one DELETE, not waiting for Pulumi's dynamic provider host", async () => {
    const sns = serialNumbers(2);
    const program = (kept: readonly string[]) => devicesProgram(kept, OWN_DYNAMIC);
    const project = await createPluginProject({
      name: "own-dynamic",
      program: program(sns),
      front: "plugin",
    });
    assertOk(await project.up());
    project.setProgram(program(sns.slice(0, 1)));
    await control.resetCounters();
    const started = Date.now();
    assertOk(await project.up());
    const seconds = (Date.now() - started) / 1000;
    process.stdout.write(`own-dynamic: the delete up took ${seconds.toFixed(1)} s\n`);
    expect(writesOf((await control.counters()).byRoute)).toEqual({ "DELETE /devices/{deviceId}": 1 });
    expect(await platformIds(sns)).toHaveLength(1);
  });
});
