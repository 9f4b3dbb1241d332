import { describe, expect, it } from "vitest";
import { stringifyJson } from "../../../emulator/http/lossless-json";
import type { TaskRecord } from "../../../emulator/state/types";
import {
  NONCE_HEADER,
  SIGNATURE_HEADER,
  TIMESTAMP_HEADER,
  WEBHOOK_UUID_HEADER,
  signedHeaders,
  webhookSignature,
} from "../../../emulator/webhooks/signing";
import { subcommandsOf, taskDataEvent } from "../../../emulator/webhooks/webhook-events";

// Computed independently: printf '1742871724nonce-123' | openssl dgst -sha256 -hmac 'my-webhook-secret'
const VECTOR = "1d5da61e0d70939c848217cc3996403d6faf60a1499075e1f2bb1bcc7b9dd16c";

describe("emulator webhook signing", () => {
  it("is the lowercase hex HMAC-SHA256 of timestamp + nonce under the secret", () => {
    expect(webhookSignature("my-webhook-secret", "1742871724", "nonce-123")).toBe(VECTOR);
  });

  it("signs with the emulator clock's seconds and a fresh nonce per attempt", () => {
    const a = signedHeaders("my-webhook-secret", "uuid-1", 1_742_871_724_999);
    const b = signedHeaders("my-webhook-secret", "uuid-1", 1_742_871_724_999);
    expect(a[TIMESTAMP_HEADER]).toBe("1742871724");
    expect(a[WEBHOOK_UUID_HEADER]).toBe("uuid-1");
    expect(a[NONCE_HEADER]).toMatch(/^[0-9a-f]{32}$/);
    expect(a[NONCE_HEADER]).not.toBe(b[NONCE_HEADER]);
    expect(a[SIGNATURE_HEADER]).toBe(
      webhookSignature("my-webhook-secret", "1742871724", a[NONCE_HEADER] ?? ""),
    );
    expect(signedHeaders("my-webhook-secret", "u", 1_742_871_724_000, "nonce-123")[SIGNATURE_HEADER]).toBe(
      VECTOR,
    );
  });
});

const task = (over: Partial<TaskRecord>): TaskRecord => ({
  taskId: "9007199254740993123",
  deviceId: "9007199254740995001",
  applicationId: "1",
  type: "TSL",
  config: { properties: { reportInterval: 1200, ledEnabled: true } },
  status: "SUCCEEDED",
  createdAt: 0,
  finishedAt: 1_742_871_724_500,
  applied: { reportInterval: 1200 },
  ...over,
});

describe("TASK_DATA events", () => {
  it("write taskId and deviceId as exact JSON numbers, seconds as eventCreatedTime", () => {
    const text = stringifyJson(taskDataEvent(task({}), true, 1_742_871_724_500));
    expect(text).toContain('"taskId":9007199254740993123');
    expect(text).toContain('"deviceId":9007199254740995001');
    expect(text).toContain('"eventCreatedTime":1742871724');
    expect(text).toContain('"type":"CONFIG"');
  });

  it("give one subcommand per requested item, FAILED for what was not applied (a dropped property)", () => {
    expect(subcommandsOf(task({}))).toEqual([
      { key: "reportInterval", status: "SUCCESS", value: 1200 },
      { key: "ledEnabled", status: "FAILED", value: true },
    ]);
  });

  it("key PROFILE tasks by the profile's keys", () => {
    const profile = task({
      type: "PROFILE",
      config: { values: [{ key: "lora.adr", value: 1 }] },
      applied: { "lora.adr": 1 },
    });
    expect(subcommandsOf(profile)).toEqual([{ key: "lora.adr", status: "SUCCESS", value: 1 }]);
  });

  it("say FAILED with device_not_found or invalid_parameter, null errCode on success", () => {
    const info = (t: TaskRecord, exists: boolean) =>
      (taskDataEvent(t, exists, 0).data as { info: { status: string; errCode: string | null } }).info;
    expect(info(task({}), true)).toMatchObject({ status: "SUCCESS", errCode: null });
    expect(info(task({ status: "FAILED", applied: undefined }), false)).toMatchObject({
      status: "FAILED",
      errCode: "device_not_found",
    });
    expect(info(task({ status: "FAILED", applied: undefined }), true)).toMatchObject({
      status: "FAILED",
      errCode: "invalid_parameter",
    });
  });
});
