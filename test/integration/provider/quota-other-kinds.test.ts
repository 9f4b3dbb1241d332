/**
 * A spent daily quota met by Device, RpsProfile and DeviceConfig, against the emulator: each stops
 * at the first refusal (no retry), records what it did as partial success where it did something,
 * and says that the plan's daily quota is spent and how many requests remain; after one refusal the
 * deployment sends no further request at all, whichever resource asks.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { DEFAULT_APPLICATION_ID } from "../../../emulator";
import { deviceImplementation as device } from "../../../provider/device/provider";
import { deviceConfigImplementation as config } from "../../../provider/device-config/provider";
import { rpsProfileImplementation as rps } from "../../../provider/rps-profile/provider";
import { resetOwnership } from "../../../provider/guardrails/ownership";
import { startNewDeployment } from "../../../provider/platform-access/platform-client";
import { resetPropertyOwnership } from "../../../provider/guardrails/property-ownership";
import { PartialSuccessError, ResourceOperationError } from "../../../provider/shared/errors";
import { serialNumbers } from "../../e2e/support/fleet-programs";
import { useConfiguredEmulator } from "./support/configured-emulator";

const env = useConfiguredEmulator({ dailyQuota: 1_000, taskDelayMs: 10 });
const SPENT = /stopped: the plan's daily request quota is spent: /;

beforeEach(async () => {
  // Tokens kept: the SDK caches them per process across clients, as a deployment's provider would.
  await env.emulator.control.reset({ keepTokens: true });
  await startNewDeployment();
  resetOwnership();
  resetPropertyOwnership();
});

async function use() {
  return (await env.emulator.control.quota()).applications[DEFAULT_APPLICATION_ID];
}

async function failureOf(promise: Promise<unknown>): Promise<ResourceOperationError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ResourceOperationError);
  return error as ResourceOperationError;
}

describe("Device", () => {
  it("records the device added when its TSL-version PUT is refused, and the deployment sends nothing more", async () => {
    const [sn, other] = serialNumbers(2, "24") as [string, string];
    await env.emulator.control.setQuota({ remaining: 2 });
    const failure = await failureOf(device.create({ sn, name: "q", tslVersion: "1.1.0" }));
    expect(failure).toBeInstanceOf(PartialSuccessError);
    const partial = failure as PartialSuccessError;
    const [onPlatform] = (await env.emulator.control.state()).devices;
    expect(partial.id).toBe(onPlatform?.deviceId);
    expect(partial.code).toBe("quota_exhausted");
    expect(partial.message).toMatch(
      new RegExp(
        `^create Device sn=${sn} stopped: the plan's daily request quota is spent: the platform refused PUT /device/openapi/v1/devices \\(HTTP 429 quota_exhausted: .*, requestId [0-9a-f]{32}\\); nothing more was sent and nothing was retried; left to make: 2 requests \\(the next \`up\` sets the TSL version: a PUT and a read\\)`,
      ),
    );
    expect(partial.message).toContain(
      `The device was added as deviceId ${partial.id} and is recorded in the stack`,
    );
    expect(partial.properties.tslVersion).toBeUndefined();
    expect(await use()).toEqual({ used: 1_000, remaining: 0, refused: 1 });

    await env.emulator.control.resetCounters();
    const next = await failureOf(device.create({ sn: other, name: "r" }));
    expect(next.message).toMatch(SPENT);
    expect(next.message).toContain("so POST /device/openapi/v1/devices/search was not sent");
    expect(next.message).toContain("left to make: 3 requests (a lookup, an add and a read)");
    expect((await env.emulator.control.counters()).total).toBe(0);
    expect((await use())?.refused).toBe(1);
  });
});

describe("Device update and delete", () => {
  it("say the quota is spent and the two requests each will make again; nothing is deleted", async () => {
    const [sn] = serialNumbers(1, "24") as [string];
    const { id, outs } = await device.create({ sn, name: "before" });
    // The next deployment (the one that created it would let no other Device delete it).
    await startNewDeployment();
    resetOwnership();
    await env.emulator.control.setQuota({ remaining: 0 });
    const update = await failureOf(device.update(id, outs ?? {}, { sn, name: "after" }));
    expect(update.message).toMatch(new RegExp(`^update Device deviceId=${id} sn=${sn} ${SPENT.source}`));
    expect(update.message).toContain("left to make: 2 requests (the update is sent again: a PUT and a read)");
    expect(update.code).toBe("quota_exhausted");
    const removal = await failureOf(device.delete(id, outs ?? {}));
    expect(removal.message).toMatch(new RegExp(`^delete Device deviceId=${id} sn=${sn} ${SPENT.source}`));
    expect(removal.message).toContain("left to make: 2 requests (a read and a DELETE)");
    // The update was refused; the delete was not even sent.
    expect(await use()).toMatchObject({ refused: 1 });
    expect((await env.emulator.control.state()).devices.map((d) => d.name)).toEqual(["before"]);
  });
});

describe("RpsProfile", () => {
  it("says the quota is spent and the one write that remains", async () => {
    const [sn] = serialNumbers(1, "66") as [string];
    await env.emulator.control.setQuota({ remaining: 0 });
    const failure = await failureOf(rps.create({ sn, profileUrl: "https://profiles.example.com/a" }));
    expect(failure).not.toBeInstanceOf(PartialSuccessError);
    expect(failure.message).toMatch(
      new RegExp(`^create RpsProfile sn=${sn} ${SPENT.source}the platform refused POST`),
    );
    expect(failure.message).toContain(
      "left to make: 1 request (Specify the Profile URL, after the RPS listing",
    );
    expect(await use()).toMatchObject({ refused: 1 });
    expect((await env.emulator.control.state()).rpsRecords).toEqual([]);
  });
});

describe("DeviceConfig", () => {
  it("records the task chunk created before the refusal; the rest is pending, one call left", async () => {
    const { devices } = await env.emulator.control.seed({
      devices: serialNumbers(600, "24").map((sn, i) => ({ sn, name: `cfg-${i}` })),
    });
    const ids = devices.map((d) => d.deviceId);
    const inputs = { deviceIds: ids, profile: { ecoMode: true, night: 18 } };
    const { failures } = await config.check({}, inputs);
    expect(failures).toEqual([]);
    await env.emulator.control.setQuota({ remaining: 1 });
    await env.emulator.control.resetCounters();
    const failure = await failureOf(config.create(inputs));
    expect(failure).toBeInstanceOf(PartialSuccessError);
    const partial = failure as PartialSuccessError;
    expect(partial.message).toMatch(SPENT);
    expect(partial.message).toContain(
      "left to make: 1 request (configuration writes for the devices that did not get theirs)",
    );
    expect(partial.message).toContain("Tasks were created for 500 device(s)");
    expect(Object.keys(partial.properties.taskIds as object)).toHaveLength(500);
    expect(Object.keys(partial.properties.pending as object)).toHaveLength(100);
    const { byRoute } = await env.emulator.control.counters();
    expect(byRoute["POST /tasks"]).toBe(2);
    expect(await use()).toMatchObject({ refused: 1 });
  });
});
