/**
 * `callService` against the emulator: an accepted call is recorded with exactly its inputs; a call
 * the device's TSL model does not allow is refused by the SDK before anything is sent (counted by
 * the emulator), and by the emulator itself when a client sends it anyway.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ValidationError, type DevicePlatformClient, type ThingModel } from "../../../sdk";
import { serialNumbers, startHarness, type Harness } from "./support/harness";

const CALL = "POST /devices/{deviceId}/services/call";
const MODEL = "GET /devices/{deviceId}/thing-specification";

let harness: Harness;
let client: DevicePlatformClient;
const nextSn = serialNumbers();
/** A sensor ("24…": services reboot and calibrate { offset: FLOAT -5..5 }) and a gateway. */
let sensor: string;
let gateway: string;

beforeAll(async () => {
  harness = await startHarness();
  client = harness.client;
  sensor = (await client.addDevice({ snDevEUI: nextSn(), name: "sensor" })).deviceId;
  gateway = (await client.addDevice({ snDevEUI: `66${nextSn().slice(2)}`, name: "gateway" })).deviceId;
});

afterAll(async () => {
  await harness.stop();
});

async function byRoute(): Promise<Record<string, number>> {
  return (await harness.emulator.control.counters()).byRoute;
}

describe("callService: accepted", () => {
  it("reads the model once, sends one call, and the emulator records exactly the inputs sent", async () => {
    await harness.emulator.control.resetCounters();
    const result = await client.callService(sensor, "calibrate", { offset: -2.5 });
    expect(result.requestId).toMatch(/^[0-9a-f]{32}$/);
    expect(await byRoute()).toEqual({ [MODEL]: 1, [CALL]: 1 });
    const calls = await harness.emulator.control.serviceCalls(sensor);
    expect(calls).toEqual([
      {
        requestId: result.requestId,
        deviceId: sensor,
        applicationId: expect.stringMatching(/^\d+$/),
        serviceId: "calibrate",
        inputs: { offset: -2.5 },
        calledAt: expect.any(Number),
      },
    ]);
  });

  it("sends only the call when the caller gives the model, and accepts a service without inputs", async () => {
    const model = await client.getThingModel(gateway);
    await harness.emulator.control.resetCounters();
    await client.callService(gateway, "scanChannels", { durationSeconds: 60 }, { model });
    await client.callService(gateway, "reboot", {}, { model });
    expect(await byRoute()).toEqual({ [CALL]: 2 });
    const calls = await harness.emulator.control.serviceCalls(gateway);
    expect(calls.map((c) => [c.serviceId, c.inputs])).toEqual([
      ["scanChannels", { durationSeconds: 60 }],
      ["reboot", {}],
    ]);
  });
});

describe("callService: refused by the SDK before anything is sent", () => {
  it.each([
    [
      "an unknown service",
      "selfDestruct",
      {},
      /serviceId selfDestruct is not a service of the TSL model .*services: reboot, calibrate/,
    ],
    [
      "an input the service does not have",
      "calibrate",
      { offset: 1, gain: 2 },
      /inputs\.gain is not an input of the service calibrate.*its inputs: offset/,
    ],
    [
      "a value above the validator's max",
      "calibrate",
      { offset: 9 },
      /inputs\.offset must be at most 5 \(TSL validator max of device \d+\), got 9/,
    ],
    [
      "a value of the wrong type",
      "calibrate",
      { offset: "warm" },
      /inputs\.offset must be a number \(TSL dataType FLOAT/,
    ],
    ["a missing value", "calibrate", { offset: null }, /inputs\.offset must have a value/],
  ])(
    "%s: ValidationError naming the field and the rule, 0 calls sent",
    async (_what, serviceId, inputs, message) => {
      await harness.emulator.control.resetCounters();
      const before = (await harness.emulator.control.serviceCalls(sensor)).length;
      const error = await client.callService(sensor, serviceId, inputs).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ValidationError);
      expect(error).toMatchObject({ code: "invalid_request", attempts: 0 });
      expect((error as Error).message).toMatch(message);
      expect(await byRoute()).toEqual({ [MODEL]: 1 });
      expect(await harness.emulator.control.serviceCalls(sensor)).toHaveLength(before);
    },
  );

  it("sends no request at all for a refusal when the model is given (whole numbers for an INT, 1..60)", async () => {
    const model = await client.getThingModel(gateway);
    await harness.emulator.control.resetCounters();
    for (const durationSeconds of [61, 0, 1.5]) {
      await expect(
        client.callService(gateway, "scanChannels", { durationSeconds }, { model }),
      ).rejects.toThrow(/inputs\.durationSeconds must be/);
    }
    expect((await harness.emulator.control.counters()).total).toBe(0);
  });
});

describe("callService: refused by the emulator", () => {
  it("answers 400 invalid_parameter and records nothing when a call breaks the device's model", async () => {
    // A model that allows what the device's does not: the SDK sends, the platform must refuse.
    const real = await client.getThingModel(sensor);
    const loose: ThingModel = {
      ...real,
      services: [
        ...real.services.filter((s) => s.id !== "calibrate"),
        { id: "calibrate", inputs: [{ id: "offset", dataSpec: { dataType: "FLOAT" } }], outputs: [] },
        { id: "selfDestruct", inputs: [], outputs: [] },
      ],
    } as ThingModel;
    const before = (await harness.emulator.control.serviceCalls(sensor)).length;
    for (const [serviceId, inputs, words] of [
      ["calibrate", { offset: 9 }, /inputs\.offset/],
      ["selfDestruct", {}, /selfDestruct is not a service/],
    ] as const) {
      const error = await client
        .callService(sensor, serviceId, inputs, { model: loose })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ValidationError);
      expect(error).toMatchObject({ status: 400, errCode: "invalid_parameter", attempts: 1 });
      expect((error as Error).message).toMatch(words);
    }
    expect(await harness.emulator.control.serviceCalls(sensor)).toHaveLength(before);
  });
});
