/**
 * Progress lines on long work: at each new tenth of the work, at most one a second (the first and
 * the last always), none for small work; the fleet's reconcile names the fleet and the counts.
 */
import { describe, expect, it } from "vitest";
import { fleetProgress } from "../../../provider/device-fleet/fleet-run";
import { withLogSink, type LogSink } from "../../../provider/output/log";
import { formatCount, Progress } from "../../../provider/output/progress";

/** Runs `work` with a sink that records the status lines. */
async function statusLines(work: () => Progress): Promise<string[]> {
  const lines: string[] = [];
  const sink: LogSink = {
    info: async () => undefined,
    warn: async () => undefined,
    status: async (message) => {
      lines.push(message);
    },
  };
  await withLogSink(sink, async () => work().delivered());
  return lines;
}

describe("Progress", () => {
  it("hands its lines to the engine in order, one after another", async () => {
    let clock = 0;
    const lines: string[] = [];
    const slowFirst: LogSink = {
      info: async () => undefined,
      warn: async () => undefined,
      // The first line is delivered a turn of the event loop later; the second at once.
      status: async (message) => {
        if (lines.length === 0 && message === "50") await new Promise((resolve) => setImmediate(resolve));
        lines.push(message);
      },
    };
    await withLogSink(slowFirst, async () => {
      const progress = new Progress(
        100,
        (done) => done,
        () => (clock += 2_000),
      );
      progress.advance(50);
      progress.advance(50);
      await progress.delivered();
    });
    expect(lines).toEqual(["50", "100"]);
  });

  it("reports each tenth when the work is slow", async () => {
    let clock = 0;
    const lines = await statusLines(() => {
      const progress = new Progress(
        100,
        (done, total) => `${done} of ${total}`,
        () => clock,
      );
      for (let i = 0; i < 100; i += 1) {
        clock += 2_000;
        progress.advance();
      }
      return progress;
    });
    expect(lines).toEqual([
      "10 of 100",
      "20 of 100",
      "30 of 100",
      "40 of 100",
      "50 of 100",
      "60 of 100",
      "70 of 100",
      "80 of 100",
      "90 of 100",
      "100 of 100",
    ]);
  });

  it("reports at most one line a second, and always the end", async () => {
    const lines = await statusLines(() => {
      const progress = new Progress(
        10_000,
        (done, total) => `${done} of ${total}`,
        () => 5_000,
      );
      for (let i = 0; i < 10_000; i += 1) progress.advance();
      return progress;
    });
    expect(lines).toEqual(["1,000 of 10,000", "10,000 of 10,000"]);
  });

  it("says nothing for work too small to wait on", async () => {
    const lines = await statusLines(() => {
      const progress = new Progress(49, (done, total) => `${done} of ${total}`);
      progress.advance(49);
      return progress;
    });
    expect(lines).toEqual([]);
  });

  it("names the fleet and counts as people read them", async () => {
    const lines = await statusLines(() => {
      const progress = fleetProgress("site-a", 10_000);
      progress.advance(1_200);
      return progress;
    });
    expect(lines).toEqual(["DeviceFleet site-a: 1,200 of 10,000 devices reconciled"]);
    expect(formatCount(1234567)).toBe("1,234,567");
  });
});
