import { describe, expect, it } from "vitest";
import { CliUsageError, parseCliArgs } from "../../../emulator/cli-args";
import { resolveOptions } from "../../../emulator/options";

const base = ["--webhook-url", "http://127.0.0.1:9000/hooks", "--webhook-secret", "s3cret"];

describe("CLI webhook arguments", () => {
  it("reads the webhook URL, secret, attempts and retry delay", () => {
    const command = parseCliArgs([...base, "--webhook-max-attempts", "3", "--webhook-retry-delay-ms", "250"]);
    expect(command).toMatchObject({
      help: false,
      options: {
        webhookUrl: "http://127.0.0.1:9000/hooks",
        webhookSecret: "s3cret",
        webhookMaxAttempts: 3,
        webhookRetryDelayMs: 250,
      },
    });
  });

  it("leaves webhooks off without the flags", () => {
    const command = parseCliArgs([]);
    if (command.help) throw new Error("unexpected help");
    expect(resolveOptions(command.options).webhooks).toBeUndefined();
  });

  it.each([
    [["--webhook-url", "http://127.0.0.1:9000/"], /go together/],
    [["--webhook-secret", "s"], /go together/],
    [["--webhook-url", "ftp://x/", "--webhook-secret", "s"], /absolute http\(s\) URL/],
    [["--webhook-url", "hooks", "--webhook-secret", "s"], /absolute http\(s\) URL/],
    [[...base, "--webhook-max-attempts", "0"], /from 1 to 20/],
    [[...base, "--webhook-max-attempts", "21"], /from 1 to 20/],
    [[...base, "--webhook-retry-delay-ms", "soon"], /non-negative/],
  ])("refuses %j", (args, message) => {
    expect(() => parseCliArgs(args)).toThrow(CliUsageError);
    expect(() => parseCliArgs(args)).toThrow(message);
  });
});

describe("webhook options", () => {
  it("fill in defaults: 5 attempts, 1 s first backoff, 10 s per attempt", () => {
    expect(resolveOptions({ webhookUrl: "https://example.test/h", webhookSecret: "s" }).webhooks).toEqual({
      url: "https://example.test/h",
      secret: "s",
      maxAttempts: 5,
      retryDelayMs: 1000,
      timeoutMs: 10_000,
    });
  });

  it("refuses a URL without a secret, an empty secret, and impossible attempts", () => {
    expect(() => resolveOptions({ webhookUrl: "https://example.test/h" })).toThrow(/go together/);
    expect(() => resolveOptions({ webhookUrl: "https://example.test/h", webhookSecret: "" })).toThrow(
      /go together/,
    );
    expect(() =>
      resolveOptions({ webhookUrl: "https://example.test/h", webhookSecret: "s", webhookMaxAttempts: 1.5 }),
    ).toThrow(/1 to 20/);
  });
});
