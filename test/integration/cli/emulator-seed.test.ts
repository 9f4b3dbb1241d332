/** The emulator's `POST /__emulator/seed`: a fleet in one call, checked whole before anything is stored. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { fetch } from "undici";
import {
  CONTROLLER,
  EmulatorControlError,
  GATEWAY,
  SENSOR,
  SUB_DEVICE,
  serialNumberFor,
  startEmulator,
  type RunningEmulator,
} from "../../../emulator";

let emulator: RunningEmulator;
beforeAll(async () => {
  emulator = await startEmulator();
});
afterAll(async () => emulator.stop());
beforeEach(async () => emulator.control.reset());

describe("POST /__emulator/seed", () => {
  it("adds devices of every model with property values, and RPS records, in one call", async () => {
    const result = await emulator.control.seed({
      devices: [
        {
          sn: serialNumberFor(SENSOR, 1),
          name: "lobby",
          project: "building-a",
          description: "first floor",
          tag: ["floor-1"],
          properties: { reportInterval: 900, alarmThreshold: { high: 28, low: 5 }, temperature: 21.5 },
        },
        { sn: serialNumberFor(GATEWAY, 1), name: "gateway" },
        { sn: serialNumberFor(CONTROLLER, 1), name: "controller", properties: { setpoint: 19 } },
        { sn: serialNumberFor(SUB_DEVICE, 1), name: "leak", project: "building-b" },
      ],
      rpsRecords: [{ sn: serialNumberFor(CONTROLLER, 9), profileUrl: "https://rps.example.com/hvac" }],
    });
    expect(result.devices.map((d) => d.sn)).toEqual([
      serialNumberFor(SENSOR, 1),
      serialNumberFor(GATEWAY, 1),
      serialNumberFor(CONTROLLER, 1),
      serialNumberFor(SUB_DEVICE, 1),
    ]);
    expect(result.devices.every((d) => /^\d+$/.test(d.deviceId))).toBe(true);
    const state = await emulator.control.state();
    expect(state.devices.map((d) => d.model)).toEqual([
      SENSOR.model,
      GATEWAY.model,
      CONTROLLER.model,
      SUB_DEVICE.model,
    ]);
    const sensor = state.devices[0];
    expect(sensor).toMatchObject({
      name: "lobby",
      project: "building-a",
      description: "first floor",
      tag: ["floor-1"],
    });
    expect(sensor?.properties).toMatchObject({
      reportInterval: 900,
      temperature: 21.5,
      alarmThreshold: { "alarmThreshold.high": 28, "alarmThreshold.low": 5 },
    });
    expect(state.devices[2]?.properties).toMatchObject({ setpoint: 19 });
    expect(state.rpsRecords).toMatchObject([
      { sn: serialNumberFor(CONTROLLER, 9), profileUrl: "https://rps.example.com/hvac" },
    ]);
    // Seeding goes around the platform API: no platform request is counted.
    expect((await emulator.control.counters()).total).toBe(0);
  });

  it("takes 5,000 devices in one body (beyond the platform routes' 1 MiB limit)", async () => {
    const devices = Array.from({ length: 5000 }, (_, i) => ({
      sn: serialNumberFor(SENSOR, i + 1),
      name: `sensor number ${i + 1} with a fairly long name to make the body big`,
      description: "x".repeat(150),
      properties: { reportInterval: 600 + (i % 7) },
    }));
    const result = await emulator.control.seed({ devices });
    expect(result.devices).toHaveLength(5000);
  });

  it.each([
    [
      "a serial number twice",
      {
        devices: [
          { sn: "240000000001", name: "a" },
          { sn: "240000000001", name: "b" },
        ],
      },
      400,
      "devices[1] (240000000001): serial number given twice",
    ],
    [
      "a bad property value",
      {
        devices: [
          { sn: "240000000001", name: "a" },
          { sn: "240000000002", name: "b", properties: { reportInterval: 5 } },
        ],
      },
      400,
      "devices[1] (240000000002): reportInterval",
    ],
    [
      "an RPS record for a device of the seed",
      {
        devices: [{ sn: "240000000001", name: "a" }],
        rpsRecords: [{ sn: "240000000001", profileUrl: "https://x.example/" }],
      },
      409,
      "rpsRecords[0] (240000000001): a device with this serial number is on the platform",
    ],
    ["a relative profile URL", { rpsRecords: [{ sn: "240000000001", profileUrl: "/p" }] }, 400, "profileUrl"],
  ])("refuses %s and stores nothing", async (_what, body, status, message) => {
    const error = await emulator.control.seed(body).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EmulatorControlError);
    expect(error).toMatchObject({ status });
    expect((error as Error).message).toContain(message);
    const state = await emulator.control.state();
    expect(state.devices).toEqual([]);
    expect(state.rpsRecords).toEqual([]);
  });

  it("refuses a device already on the platform or holding an RPS record (409)", async () => {
    await emulator.control.seed({
      devices: [{ sn: "240000000001", name: "a" }],
      rpsRecords: [{ sn: "240000000002", profileUrl: "https://x.example/" }],
    });
    for (const sn of ["240000000001", "240000000002"]) {
      const error = await emulator.control
        .seed({ devices: [{ sn, name: "again" }] })
        .catch((e: unknown) => e);
      expect(error).toMatchObject({ status: 409 });
    }
    expect((await emulator.control.state()).devices).toHaveLength(1);
  });

  it("is part of the control API: absent when control is off", async () => {
    const off = await startEmulator({ control: false });
    try {
      const response = await fetch(`${off.url}/__emulator/seed`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ devices: [] }),
      });
      expect(response.status).toBe(404);
    } finally {
      await off.stop();
    }
  });
});
