/**
 * The words of a spent quota (provider/shared/quota.ts): a request the platform refused is named
 * as refused; a request the client did not send because it had halted (on this process's refusal
 * or another's of the deployment) is named as not sent, whatever attempts it had made before.
 */
import { describe, expect, it } from "vitest";
import { QuotaExhaustedError, QuotaHaltedError } from "../../../sdk";
import { quotaSpent } from "../../../provider/shared/quota";

const said = {
  status: 429,
  errCode: "quota_exhausted",
  errMsg: "the daily request quota of 22 requests for this application is spent",
  requestId: "0f3c9a",
};

describe("quotaSpent", () => {
  it("names the request the platform refused", () => {
    const refusal = new QuotaExhaustedError({
      method: "PUT",
      path: "/device/openapi/v1/devices",
      attempts: 1,
      ...said,
    });
    expect(quotaSpent(refusal)).toBe(
      "the plan's daily request quota is spent: the platform refused PUT /device/openapi/v1/devices (HTTP 429 " +
        `quota_exhausted: ${said.errMsg}, requestId 0f3c9a); nothing more was sent and nothing was retried`,
    );
  });

  it.each([0, 1])("names a halted request as not sent (%i attempts made before)", (attempts) => {
    const halted = new QuotaHaltedError({
      method: "GET",
      path: "/device/openapi/v1/devices/11",
      attempts,
      ...said,
    });
    expect(quotaSpent(halted)).toBe(
      "the plan's daily request quota is spent: the platform had refused an earlier request of this deployment " +
        `(HTTP 429 quota_exhausted: ${said.errMsg}, requestId 0f3c9a), so GET /device/openapi/v1/devices/11 was ` +
        "not sent; nothing more was sent and nothing was retried",
    );
  });
});
