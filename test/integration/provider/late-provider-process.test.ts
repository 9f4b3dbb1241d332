/**
 * A serial number moved in one `up` from a fleet in one provider process to a Device in another
 * that the engine has started but that is not running yet (a cold start on a loaded machine: the
 * random-operations harness saw the plugin configured 6 s after the engine started it, 3 s after
 * the dynamic fleet's update had deleted the device its Device then added again). This process
 * plays the dynamic provider host; the other is started as the engine starts the plugin — its
 * launcher `pulumi-resource-devplatform` with the engine's address — and its node runs one second
 * late. The fleet's removal waits for it to join the record, and keeps the device.
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { providerImplementation } from "../../../provider/dynamic/implementations";
import { resetOwnership } from "../../../provider/guardrails/ownership";
import {
  joinDeployment,
  resetSharedRecord,
  type Deployment,
} from "../../../provider/deployment/shared-record";
import type { Inputs } from "../../../provider/shared/input-checks";
import { serialNumbers } from "../../e2e/support/fleet-programs";
import { useConfiguredEmulator } from "./support/configured-emulator";
import type { OwnerProcessOrder } from "./support/owner-process";
import { newDeployment } from "./support/pretend-engine";

const env = useConfiguredEmulator();
const children: ChildProcessWithoutNullStreams[] = [];

beforeEach(() => {
  process.env.DEVPLATFORM_OWNERSHIP_DIR = fs.mkdtempSync(path.join(os.tmpdir(), "owners-"));
  resetOwnership();
  resetSharedRecord();
});

afterEach(async () => {
  for (const child of children.splice(0)) {
    if (child.exitCode !== null) continue;
    child.stdin.end();
    await new Promise((resolve) => child.once("exit", resolve));
  }
});

/**
 * Starts the other provider process as the engine starts the plugin: a launcher named
 * `pulumi-resource-devplatform`, the engine's address its argument, node under `sh` (as Pulumi's
 * own launcher runs it) one second late. Resolves with the ids of what it created, once it has.
 */
function startLatePlugin(deployment: Deployment, resources: OwnerProcessOrder["resources"]) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "late-plugin-"));
  const launcher = path.join(dir, "pulumi-resource-devplatform");
  const script = path.join(__dirname, "support", "owner-process.ts");
  fs.writeFileSync(
    launcher,
    `#!/bin/sh\nsleep 1\n${JSON.stringify(process.execPath)} --import tsx ${JSON.stringify(script)} "$@"\n`,
    { mode: 0o755 },
  );
  const order: OwnerProcessOrder = {
    deployment,
    baseUrl: env.emulator.url,
    clientId: "demo-client",
    resources,
  };
  const child = spawn(launcher, [deployment.engineAddress], {
    env: { ...process.env, OWNER_PROCESS: JSON.stringify(order) },
    stdio: "pipe",
  });
  children.push(child);
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise<string[]>((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split("\n").find((l) => l.startsWith("OWNER-PROCESS "));
      if (line) resolve((JSON.parse(line.slice("OWNER-PROCESS ".length)) as { ids: string[] }).ids);
    });
    child.once("exit", (code) => reject(new Error(`the late plugin exited ${String(code)}: ${stderr}`)));
  });
}

describe("a provider process that starts late", () => {
  it("is waited for: a fleet's removal keeps the device the late process's Device declares", async () => {
    const [sn] = serialNumbers(1) as [string];
    const fleet = providerImplementation("DeviceFleet");
    const olds: Inputs = { fleetName: "site-l", devices: [{ sn, name: "moving" }] };
    const created = await fleet.create((await fleet.check({}, olds)).inputs);
    const deviceId = (await env.emulator.control.state()).devices.find((d) => d.sn === sn)?.deviceId;

    // The next deployment: the engine has started the plugin for the Device, and updates the
    // fleet, which no longer lists the serial number, meanwhile.
    resetOwnership();
    resetSharedRecord();
    const deployment = await newDeployment();
    joinDeployment(deployment);
    await env.emulator.control.resetCounters();
    const plugin = startLatePlugin(deployment, [{ kind: "Device", inputs: { sn, name: "moving" } }]);
    const news = (await fleet.check(created.outs ?? {}, { fleetName: "site-l", devices: [] })).inputs;
    await fleet.update("site-l", created.outs ?? {}, news);
    const [adopted] = await plugin;

    const { byRoute } = await env.emulator.control.counters();
    console.log(`a fleet's removal beside a late plugin: ${JSON.stringify(byRoute)}`);
    expect(byRoute["DELETE /devices/{deviceId}"]).toBeUndefined();
    expect(byRoute["POST /devices"]).toBeUndefined();
    expect(adopted).toBe(deviceId);
    expect((await env.emulator.control.state()).devices.filter((d) => d.sn === sn)).toMatchObject([
      { deviceId },
    ]);
  });
});
