import { describe, expect, it } from "vitest";
import { CliUsageError, parseCliArgs } from "../../../emulator/cli-args";

describe("CLI arguments", () => {
  it("has defaults", () => {
    expect(parseCliArgs([])).toEqual({
      help: false,
      options: expect.objectContaining({ port: 0, host: "127.0.0.1", control: false, numericIds: false }),
    });
  });

  it("reads every option", () => {
    const command = parseCliArgs([
      "--port=4010",
      "--host",
      "0.0.0.0",
      "--client-id",
      "id",
      "--client-secret",
      "secret",
      "--state",
      "s.json",
      "--control",
      "--numeric-ids",
      "--token-ttl",
      "60",
      "--rate-limit",
      "10",
      "--daily-quota",
      "1000",
      "--task-delay-ms",
      "5",
      "--max-page-size",
      "7",
    ]);
    expect(command).toEqual({
      help: false,
      options: {
        port: 4010,
        host: "0.0.0.0",
        clientId: "id",
        clientSecret: "secret",
        statePath: "s.json",
        control: true,
        numericIds: true,
        tokenTtlSeconds: 60,
        refreshTokenTtlSeconds: undefined,
        rateLimit: 10,
        dailyQuota: 1000,
        taskDelayMs: 5,
        maxPageSize: 7,
      },
    });
  });

  it("asks for help", () => {
    expect(parseCliArgs(["--help"])).toEqual({ help: true });
  });

  it.each([
    ["--port", "x"],
    ["--port", "70000"],
    ["--rate-limit", "1.5"],
    ["--daily-quota", "-1"],
    ["--daily-quota", "2.5"],
    ["--token-ttl", "-1"],
    ["--max-page-size", "0"],
    ["--max-page-size", "101"],
    ["--nope"],
    ["extra"],
  ])("refuses %j", (...args) => {
    expect(() => parseCliArgs(args)).toThrow(CliUsageError);
  });
});
