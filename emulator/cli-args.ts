import { parseArgs } from "node:util";
import { DEFAULT_CLIENT_ID, DEFAULT_CLIENT_SECRET } from "./options";
import type { StartOptions } from "./start";

/**
 * Usage text of the emulator's command line, run as `program` (`devplatform-emulator`, or
 * `devplatform emulator` when the devplatform command runs it).
 */
export function usage(program: string): string {
  return `Usage: ${program} [options]

A local emulator of the device platform's HTTP API. Prints
"devplatform-emulator listening on http://HOST:PORT" first, then serves until SIGTERM/SIGINT.

Options:
  --port N                     TCP port; 0 picks a free one (default 0)
  --host H                     interface to listen on (default 127.0.0.1)
  --client-id ID               OAuth client id (default ${DEFAULT_CLIENT_ID})
  --client-secret S            OAuth client secret (default ${DEFAULT_CLIENT_SECRET})
  --state FILE                 load state from FILE and save every change to it
  --control                    serve the /__emulator/ control API (faults, clock, state, counters)
  --numeric-ids                send deviceId, applicationId and taskId as JSON numbers
  --token-ttl SECONDS          access-token lifetime (default 3600)
  --refresh-token-ttl SECONDS  refresh-token lifetime (default 2592000)
  --rate-limit N               at most N requests per second per application (default unlimited)
  --daily-quota N              at most N requests per application per emulator day, then 429
                               quota_exhausted (default unlimited)
  --task-delay-ms MS           delay before a configuration task applies (default 50)
  --max-page-size N            searches serve at most N records a page, 1-100, whatever is
                               asked (default 100)
  --webhook-url URL            POST the platform's webhook events (TASK_DATA, DEVICE_DATA,
                               WEBHOOK_TEST) to URL, signed with --webhook-secret
  --webhook-secret S           secret of the webhook signatures (required with --webhook-url)
  --webhook-max-attempts N     attempts per delivery before giving up, 1-20 (default 5)
  --webhook-retry-delay-ms MS  backoff before a delivery's first retry, doubled for each
                               further one (default 1000)
  --help                       print this text
`;
}

/** Usage text of `devplatform-emulator --help`. */
export const USAGE = usage("devplatform-emulator");

/** A command line the CLI cannot run. */
export class CliUsageError extends Error {}

/** What the command line asks for. */
export type CliCommand = { help: true } | { help: false; options: StartOptions };

function number(name: string, text: string | undefined, integer: boolean): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (text.trim() === "" || !Number.isFinite(value) || value < 0 || (integer && !Number.isInteger(value))) {
    throw new CliUsageError(
      `--${name} must be a non-negative ${integer ? "integer" : "number"}, got "${text}"`,
    );
  }
  return value;
}

function pageSize(text: string | undefined): number | undefined {
  const value = number("max-page-size", text, true);
  if (value !== undefined && (value < 1 || value > 100))
    throw new CliUsageError(`--max-page-size must be from 1 to 100, got ${value}`);
  return value;
}

function webhookOptions(values: Record<string, string | boolean | undefined>): Partial<StartOptions> {
  const url = values["webhook-url"];
  const secret = values["webhook-secret"];
  if (typeof url !== typeof secret)
    throw new CliUsageError("--webhook-url and --webhook-secret go together: give both or neither");
  if (typeof url !== "string" || typeof secret !== "string") return {};
  if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol))
    throw new CliUsageError(`--webhook-url must be an absolute http(s) URL, got "${url}"`);
  const attempts = number("webhook-max-attempts", values["webhook-max-attempts"] as string | undefined, true);
  if (attempts !== undefined && (attempts < 1 || attempts > 20))
    throw new CliUsageError(`--webhook-max-attempts must be from 1 to 20, got ${attempts}`);
  return {
    webhookUrl: url,
    webhookSecret: secret,
    webhookMaxAttempts: attempts,
    webhookRetryDelayMs: number(
      "webhook-retry-delay-ms",
      values["webhook-retry-delay-ms"] as string | undefined,
      false,
    ),
  };
}

/** Parses the CLI's arguments (without `node` and the script). */
export function parseCliArgs(args: string[]): CliCommand {
  let values;
  try {
    ({ values } = parseArgs({
      args,
      strict: true,
      allowPositionals: false,
      options: {
        port: { type: "string" },
        host: { type: "string" },
        "client-id": { type: "string" },
        "client-secret": { type: "string" },
        state: { type: "string" },
        control: { type: "boolean" },
        "numeric-ids": { type: "boolean" },
        "token-ttl": { type: "string" },
        "refresh-token-ttl": { type: "string" },
        "rate-limit": { type: "string" },
        "daily-quota": { type: "string" },
        "task-delay-ms": { type: "string" },
        "max-page-size": { type: "string" },
        "webhook-url": { type: "string" },
        "webhook-secret": { type: "string" },
        "webhook-max-attempts": { type: "string" },
        "webhook-retry-delay-ms": { type: "string" },
        help: { type: "boolean" },
      },
    }));
  } catch (error) {
    throw new CliUsageError((error as Error).message);
  }
  if (values.help) return { help: true };
  const port = number("port", values.port, true) ?? 0;
  if (port > 65535) throw new CliUsageError(`--port must be at most 65535, got ${port}`);
  return {
    help: false,
    options: {
      port,
      host: values.host ?? "127.0.0.1",
      clientId: values["client-id"],
      clientSecret: values["client-secret"],
      statePath: values.state,
      control: values.control ?? false,
      numericIds: values["numeric-ids"] ?? false,
      tokenTtlSeconds: number("token-ttl", values["token-ttl"], false),
      refreshTokenTtlSeconds: number("refresh-token-ttl", values["refresh-token-ttl"], false),
      rateLimit: number("rate-limit", values["rate-limit"], true),
      dailyQuota: number("daily-quota", values["daily-quota"], true),
      taskDelayMs: number("task-delay-ms", values["task-delay-ms"], false),
      maxPageSize: pageSize(values["max-page-size"]),
      ...webhookOptions(values),
    },
  };
}
