/**
 * The emulator's webhooks received by a real receiver and checked with the SDK's verifyWebhook:
 * TASK_DATA and DEVICE_DATA signed and exact, batching, WEBHOOK_TEST, and a delivery that never
 * holds up the API request behind it.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../../emulator";
import {
  DevicePlatformClient,
  clearTokenCache,
  isDeviceDataEvent,
  isTaskDataEvent,
  verifyWebhook,
  type DeviceDataEvent,
  type TaskDataEvent,
  type WebhookEvent,
} from "../../../sdk";
import { serialNumbers } from "../sdk/support/harness";
import {
  startRecordingReceiver,
  type ReceivedRequest,
  type RecordingReceiver,
} from "./support/recording-receiver";

const SECRET = "whsec-delivery-test";
const nextSerial = serialNumbers();
let receiver: RecordingReceiver;
let emulator: RunningEmulator;
let client: DevicePlatformClient;

beforeAll(async () => {
  receiver = await startRecordingReceiver();
  clearTokenCache();
  emulator = await startEmulator({ webhookUrl: receiver.url, webhookSecret: SECRET, taskDelayMs: 5 });
  client = new DevicePlatformClient({
    baseUrl: emulator.url,
    clientId: "demo-client",
    clientSecret: "demo-secret",
  });
});

afterEach(async () => {
  receiver.release();
  await emulator.control.waitForWebhooks();
  receiver.requests.length = 0;
  await emulator.control.reset({ keepTokens: true });
});

afterAll(async () => {
  await client.close();
  await emulator.stop();
  await receiver.close();
});

function verified(request: ReceivedRequest): WebhookEvent[] {
  return verifyWebhook({ headers: request.headers, body: request.body, secret: SECRET });
}

const allEvents = () => receiver.requests.flatMap(verified);
const TWO_TO_53 = 2n ** 53n;

describe("webhooks of the emulator, verified with verifyWebhook", () => {
  it("a configuration task sends DEVICE_DATA and TASK_DATA together, signed, ids exact above 2^53", async () => {
    const startedSeconds = Math.floor(Date.now() / 1000);
    const { deviceId } = await client.addDevice({ snDevEUI: nextSerial(), name: "webhook sensor" });
    const [relation] = await client.createConfigTasks({
      type: "TSL",
      deviceIds: [deviceId],
      config: { properties: { reportInterval: 1200, alarmThreshold: { high: 35, low: 5 } } },
    });
    const { deliveries, webhookUuid } = await emulator.control.waitForWebhooks();

    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]).toMatchObject({ state: "delivered", eventTypes: ["DEVICE_DATA", "TASK_DATA"] });
    expect(receiver.requests).toHaveLength(1);
    const [request] = receiver.requests;
    expect(request?.method).toBe("POST");
    expect(request?.headers["x-msc-webhook-uuid"]).toBe(webhookUuid);
    expect(request?.headers["x-msc-request-signature"]).toMatch(/^[0-9a-f]{64}$/);
    // The raw body carries the task's ids as JSON numbers with every digit.
    const raw = request?.body.toString("utf8") ?? "";
    expect(raw).toContain(`"taskId":${relation?.taskId}`);
    expect(raw).toContain(`"deviceId":${deviceId}`);

    const [deviceData, taskData] = allEvents() as [DeviceDataEvent, TaskDataEvent];
    expect(BigInt(deviceId) > TWO_TO_53).toBe(true);
    expect(taskData.eventType).toBe("TASK_DATA");
    expect(taskData.data).toEqual({
      info: {
        taskId: relation?.taskId,
        deviceId,
        status: "SUCCESS",
        errCode: undefined,
        subcommand: [
          { key: "reportInterval", status: "SUCCESS", value: 1200 },
          { key: "alarmThreshold", status: "SUCCESS", value: { high: 35, low: 5 } },
        ],
      },
      type: "CONFIG",
    });
    expect(deviceData.eventType).toBe("DEVICE_DATA");
    expect(deviceData.data.deviceProfile).toMatchObject({
      deviceId,
      model: expect.any(String),
      name: "webhook sensor",
    });
    expect(deviceData.data.type).toBe("PROPERTY");
    expect(Object.keys(deviceData.data.payload).sort()).toEqual(["alarmThreshold", "reportInterval"]);
    expect(deviceData.data.payload.reportInterval).toBe(1200);
    // Seconds, not milliseconds, on the emulator's clock (wall time here).
    expect(taskData.eventCreatedTime).toBeGreaterThanOrEqual(startedSeconds);
    expect(taskData.eventCreatedTime).toBeLessThanOrEqual(Math.floor(Date.now() / 1000));
  });

  it("a task whose device is gone sends TASK_DATA FAILED with device_not_found and FAILED subcommands", async () => {
    const { deviceId } = await client.addDevice({ snDevEUI: nextSerial(), name: "gone" });
    await emulator.control.holdTasks(true);
    await client.createConfigTasks({
      type: "TSL",
      deviceIds: [deviceId],
      config: { properties: { reportInterval: 900 } },
    });
    await emulator.control.deleteDevice(deviceId);
    await emulator.control.holdTasks(false);
    await emulator.control.waitForWebhooks();
    const events = allEvents();
    expect(events.map((e) => e.eventType)).toEqual(["TASK_DATA"]);
    expect((events[0] as TaskDataEvent).data.info).toMatchObject({
      deviceId,
      status: "FAILED",
      errCode: "device_not_found",
      subcommand: [{ key: "reportInterval", status: "FAILED", value: 900 }],
    });
  });

  it("a dropped property is FAILED in TASK_DATA and absent from DEVICE_DATA", async () => {
    const { deviceId } = await client.addDevice({ snDevEUI: nextSerial(), name: "dropping" });
    await emulator.control.setFaults({ rate: 0, kinds: [], dropProperties: ["ledEnabled"] });
    await client.createConfigTasks({
      type: "TSL",
      deviceIds: [deviceId],
      config: { properties: { reportInterval: 700, ledEnabled: false } },
    });
    await emulator.control.waitForWebhooks();
    const events = allEvents();
    const deviceData = events.find(isDeviceDataEvent);
    const taskData = events.find(isTaskDataEvent);
    expect(deviceData?.data.payload).toEqual({ reportInterval: 700 });
    expect(taskData?.data.info.status).toBe("SUCCESS");
    expect(taskData?.data.info.subcommand).toEqual([
      { key: "reportInterval", status: "SUCCESS", value: 700 },
      { key: "ledEnabled", status: "FAILED", value: false },
    ]);
  });

  it("PATCH properties and the control API's property changes send DEVICE_DATA, LONG values exact", async () => {
    const { deviceId } = await client.addDevice({ snDevEUI: nextSerial(), name: "reporter" });
    await client.updateProperties(deviceId, { reportInterval: 300 });
    const big = 2n ** 60n + 1n;
    await emulator.control.changeDevice(deviceId, { properties: { reportCount: big } });
    await emulator.control.waitForWebhooks();
    const events = allEvents() as DeviceDataEvent[];
    expect(events.map((e) => e.eventType)).toEqual(["DEVICE_DATA", "DEVICE_DATA"]);
    expect(events[0]?.data.payload).toEqual({ reportInterval: 300 });
    expect(events[1]?.data.payload).toEqual({ reportCount: big.toString() });
    expect(events.every((e) => e.data.deviceProfile.deviceId === deviceId)).toBe(true);
    expect(receiver.requests.some((r) => r.body.toString().includes(`"reportCount":${big}`))).toBe(true);
  });

  it("an auto-provisioning template applied at add is a DEVICE_DATA event, as it is a history report", async () => {
    const { deviceId } = await client.addDevice({
      snDevEUI: nextSerial(),
      name: "provisioned at add",
      autoProvision: true,
      config: { version: "1", type: "TSL", properties: { reportInterval: 900 } },
    });
    await emulator.control.waitForWebhooks();
    const events = allEvents().filter(isDeviceDataEvent);
    const reports = await client.propertyHistory(deviceId).toArray();

    expect(events).toHaveLength(1);
    expect(events[0]?.data.deviceProfile.deviceId).toBe(deviceId);
    expect(events[0]?.data.payload).toEqual(reports[0]?.properties);
    expect(reports).toHaveLength(1);
  });

  it("the control API's test call sends WEBHOOK_TEST with the reference's sentence", async () => {
    const eventId = await emulator.control.testWebhook();
    await emulator.control.waitForWebhooks();
    expect(allEvents()).toEqual([
      {
        eventId,
        eventCreatedTime: expect.any(Number),
        eventVersion: "1.0",
        eventType: "WEBHOOK_TEST",
        data: "Test Milesight Webhook Successfully.",
      },
    ]);
  });

  it("never holds up the API request: PATCH answers while its delivery waits for the receiver", async () => {
    const { deviceId } = await client.addDevice({ snDevEUI: nextSerial(), name: "slow receiver" });
    const arrived = receiver.holdAnswers();
    const applied = await client.updateProperties(deviceId, { reportInterval: 600 });
    expect(applied.properties).toEqual({ reportInterval: 600 });
    await arrived;
    const { deliveries } = await emulator.control.webhookDeliveries();
    expect(deliveries.map((d) => d.state)).toEqual(["sending"]);
    receiver.release();
    const settled = await emulator.control.waitForWebhooks();
    expect(settled.deliveries.map((d) => d.state)).toEqual(["delivered"]);
  });

  it("events that become ready while a delivery is in flight travel together in the next one", async () => {
    const { deviceId } = await client.addDevice({ snDevEUI: nextSerial(), name: "batch" });
    const arrived = receiver.holdAnswers();
    await client.updateProperties(deviceId, { reportInterval: 601 });
    await arrived;
    await client.updateProperties(deviceId, { reportInterval: 602 });
    await client.updateProperties(deviceId, { reportInterval: 603 });
    await emulator.control.testWebhook();
    receiver.release();
    const { deliveries } = await emulator.control.waitForWebhooks();
    expect(deliveries.map((d) => d.eventTypes)).toEqual([
      ["DEVICE_DATA"],
      ["DEVICE_DATA", "DEVICE_DATA", "WEBHOOK_TEST"],
    ]);
    expect(receiver.requests).toHaveLength(2);
    const payloads = allEvents().flatMap((e) => (isDeviceDataEvent(e) ? [e.data.payload] : []));
    expect(payloads).toEqual([{ reportInterval: 601 }, { reportInterval: 602 }, { reportInterval: 603 }]);
  });

  it("a backlog goes out at most 100 events a delivery, in order", async () => {
    const { deviceId } = await client.addDevice({ snDevEUI: nextSerial(), name: "backlog" });
    const arrived = receiver.holdAnswers();
    await emulator.control.changeDevice(deviceId, { properties: { batteryLevel: 0 } });
    await arrived;
    for (let level = 1; level <= 150; level += 1) {
      await emulator.control.changeDevice(deviceId, { properties: { batteryLevel: level % 101 } });
    }
    receiver.release();
    const { deliveries } = await emulator.control.waitForWebhooks();
    expect(deliveries.map((d) => d.eventIds.length)).toEqual([1, 100, 50]);
    const levels = allEvents().flatMap((e) => (isDeviceDataEvent(e) ? [e.data.payload.batteryLevel] : []));
    expect(levels).toEqual(Array.from({ length: 151 }, (_, i) => i % 101));
  });
});
