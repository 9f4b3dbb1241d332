import * as pulumi from "@pulumi/pulumi";
import { afterEach, describe, expect, it, vi } from "vitest";
// The dynamic front-end, which sends messages outside an operation to @pulumi/pulumi's log.
import "../../../provider/dynamic/implementations";
import { log, setDefaultLogSink, withLogSink, type LogSink } from "../../../provider/output/log";

function recordingSink(into: string[], name: string): LogSink {
  return {
    info: async (message) => void into.push(`${name} info ${message}`),
    warn: async (message) => void into.push(`${name} warn ${message}`),
    status: async (message) => void into.push(`${name} status ${message}`),
  };
}

describe("the implementations' log", () => {
  afterEach(() => vi.restoreAllMocks());

  it("goes to @pulumi/pulumi's log outside a front-end's operation, status as an ephemeral info", async () => {
    const info = vi.spyOn(pulumi.log, "info").mockResolvedValue();
    const warn = vi.spyOn(pulumi.log, "warn").mockResolvedValue();
    await log.info("planned");
    await log.warn("adopted");
    await log.status("12 of 100");
    expect(warn).toHaveBeenCalledWith("adopted");
    expect(info.mock.calls).toEqual([["planned"], ["12 of 100", undefined, undefined, true]]);
  });

  it("goes to each operation's own sink, also across awaits and for operations running at once", async () => {
    const seen: string[] = [];
    const tick = () => new Promise((resolve) => setTimeout(resolve, 1));
    await Promise.all([
      withLogSink(recordingSink(seen, "a"), async () => {
        await tick();
        await log.status("a1");
        await tick();
        await log.warn("a2");
      }),
      withLogSink(recordingSink(seen, "b"), async () => {
        await log.info("b1");
        await tick();
        await log.status("b2");
      }),
    ]);
    expect(seen.filter((line) => line.startsWith("a "))).toEqual(["a status a1", "a warn a2"]);
    expect(seen.filter((line) => line.startsWith("b "))).toEqual(["b info b1", "b status b2"]);
  });

  it("goes to the default a front-end set instead (the plugin's: the engine, never @pulumi/pulumi's log)", async () => {
    const info = vi.spyOn(pulumi.log, "info").mockResolvedValue();
    const seen: string[] = [];
    const dynamic = setDefaultLogSink(recordingSink(seen, "plugin"));
    try {
      await log.info("outside any operation");
      await withLogSink(recordingSink(seen, "op"), () => log.warn("inside one"));
    } finally {
      setDefaultLogSink(dynamic);
    }
    expect(seen).toEqual(["plugin info outside any operation", "op warn inside one"]);
    expect(info).not.toHaveBeenCalled();
  });
});
