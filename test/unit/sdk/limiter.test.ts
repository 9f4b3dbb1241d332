import { describe, expect, it } from "vitest";
import { RequestLimiter } from "../../../sdk/limiter";
import { sleep } from "../../../sdk/retry";

describe("RequestLimiter", () => {
  it("never runs more tasks at once than the concurrency cap", async () => {
    const limiter = new RequestLimiter({ concurrency: 3 });
    let active = 0;
    let peak = 0;
    await Promise.all(
      Array.from({ length: 20 }, () =>
        limiter.run(async () => {
          active += 1;
          peak = Math.max(peak, active);
          await sleep(2);
          active -= 1;
        }),
      ),
    );
    expect(peak).toBe(3);
  });

  it("spaces starts to the requests-per-second limit", async () => {
    const limiter = new RequestLimiter({ concurrency: 10, requestsPerSecond: 100 });
    const starts: number[] = [];
    const t0 = Date.now();
    await Promise.all(
      Array.from({ length: 11 }, () => limiter.run(async () => void starts.push(Date.now() - t0))),
    );
    // 11 starts at 10 ms intervals need at least ~100 ms.
    expect(Math.max(...starts)).toBeGreaterThanOrEqual(95);
  });

  it("releases the slot when a task fails", async () => {
    const limiter = new RequestLimiter({ concurrency: 1 });
    await expect(limiter.run(() => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    await expect(limiter.run(async () => 1)).resolves.toBe(1);
  });
});
