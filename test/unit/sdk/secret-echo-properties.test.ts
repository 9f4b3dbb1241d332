/**
 * Secrets never shown, in part or whole, whatever a server echoes and wherever a text is cut:
 * generated secrets (any printable characters, 6-64 long) x the forms a server echoes them in x
 * where the echo falls against the package's cuts x every way a text leaves the package (the token
 * endpoint's refusal, any endpoint's error, the CLI's output, the review summary, the provider's
 * diagnostics and failures). A run fails when it shows 4 or more consecutive characters of the
 * secret, as they are or in the echo's form, that the same run without the echo does not show.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { inspect } from "node:util";
import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { redactingStream } from "../../../cli/run";
import { summaryOf } from "../../../cli/review/pr-summary-command";
import { failureMessage } from "../../../provider/plugin/server/errors";
import { log, withLogSink } from "../../../provider/output/log";
import { operationFailed, PartialSuccessError } from "../../../provider/shared/errors";
import { clearTokenCache, DevicePlatformError, errorFromResponse } from "../../../sdk";
import { forgetSecrets, pinSecret, redactText, redactThenCut, registerSecret } from "../../../sdk/redact";
import { CLIENT_ID, FakePlatform, ok } from "./support/fake-platform";

/** Printable characters: ASCII, and a few beyond it (2-, 3- and 4-byte UTF-8, one outside the BMP). */
const character = fc.oneof(
  { weight: 8, arbitrary: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)) },
  { weight: 1, arbitrary: fc.constantFrom("ä", "é", "ß", "€", "中", "😀") },
);
const secretArb = fc
  .array(character, { minLength: 6, maxLength: 64 })
  .map((chars) => chars.join(""))
  // A secret sharing 3 characters with the marker that replaces it could be "seen" beside it.
  .filter((secret) => !windows(secret, 3).some((w) => "[REDACTED]…".includes(w)));

const utf8 = new TextEncoder();
const strict = (s: string, upper: boolean) =>
  [...utf8.encode(s)]
    .map((b) => `%${b.toString(16).padStart(2, "0")}`)
    .map((e) => (upper ? e.toUpperCase() : e))
    .join("");
const lowerHex = (s: string) => s.replace(/%[0-9A-F]{2}/g, (e) => e.toLowerCase());
const jsonInner = (s: string) => JSON.stringify(s).slice(1, -1);

/** The forms a server echoes a value in. */
const ENCODINGS: Record<string, (s: string) => string> = {
  raw: (s) => s,
  url: encodeURIComponent,
  urlLower: (s) => lowerHex(encodeURIComponent(s)),
  form: (s) => new URLSearchParams({ s }).toString().slice(2),
  strictUpper: (s) => strict(s, true),
  strictLower: (s) => strict(s, false),
  json: jsonInner,
  jsonUnicode: (s) =>
    [...s]
      .map((c) =>
        /^[A-Za-z0-9]$/.test(c)
          ? c
          : Array.from(
              { length: c.length },
              (_, i) => `\\u${c.charCodeAt(i).toString(16).padStart(4, "0")}`,
            ).join(""),
      )
      .join(""),
  jsonSlash: (s) => jsonInner(s).replace(/\//g, "\\/"),
  html: (s) =>
    s.replace(
      /[&<>"']/g,
      (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] as string,
    ),
};
const encodingArb = fc.constantFrom(...Object.keys(ENCODINGS));

function windows(text: string, size: number): string[] {
  const chars = [...text];
  return Array.from({ length: Math.max(0, chars.length - size + 1) }, (_, i) =>
    chars.slice(i, i + size).join(""),
  );
}

/** Parts of `secret` (4 characters or more, as is or in `encoding`) that `shown` has and `baseline` lacks. */
function leaked(shown: string, baseline: string, secret: string, encoding: string): string[] {
  const encode = ENCODINGS[encoding] as (s: string) => string;
  return windows(secret, 4).filter((w) =>
    [w, encode(w)].some((form) => shown.includes(form) && !baseline.includes(form)),
  );
}

/** Runs `path` with and without the echo, and asserts that nothing of the secret shows. */
async function expectNothingShown(
  secret: string,
  encoding: string,
  path: (echo: string) => Promise<string> | string,
): Promise<void> {
  const echo = (ENCODINGS[encoding] as (s: string) => string)(secret);
  const shown = await path(echo);
  const baseline = await path("");
  expect(leaked(shown, baseline, secret, encoding), `${encoding}: ${shown}`).toEqual([]);
}

// Hundreds of generated runs per property: more than the default 10 s on a shared machine.
vi.setConfig({ testTimeout: 120_000 });

const padding = fc.nat({ max: 700 }).map((n) => "x".repeat(n));

describe("the redaction itself", () => {
  it("removes every echo form, and a cut anywhere never shows part of a secret", () => {
    fc.assert(
      fc.property(secretArb, encodingArb, padding, fc.nat({ max: 800 }), (secret, encoding, pad, cut) => {
        forgetSecrets();
        pinSecret(secret);
        const echo = (ENCODINGS[encoding] as (s: string) => string)(secret);
        const text = `500 echo: ${pad}client_secret=${echo}&grant_type=client_credentials`;
        const out = redactThenCut(text, cut);
        const baseline = redactThenCut(`500 echo: ${pad}client_secret=&grant_type=client_credentials`, cut);
        expect(leaked(out, baseline, secret, encoding), out).toEqual([]);
        expect(leaked(redactText(text), baseline, secret, encoding)).toEqual([]);
      }),
      { numRuns: 400 },
    );
  });
});

describe("through the SDK client", () => {
  let platform: FakePlatform;
  beforeEach(() => {
    clearTokenCache();
    platform = new FakePlatform();
  });
  afterEach(() => platform.close());

  /** Every text an error carries out: message, JSON, inspect, the events. */
  function textsOf(error: unknown): string {
    expect(error).toBeInstanceOf(DevicePlatformError);
    return [
      (error as Error).message,
      JSON.stringify(error),
      inspect(error, { depth: 5 }),
      JSON.stringify(platform.events),
    ].join("\n");
  }

  const tokenAnswers = fc.constantFrom(400, 401, 404, 500, 501, 200);

  it("the token endpoint echoing the client secret, in any form and status", async () => {
    await fc.assert(
      fc.asyncProperty(
        secretArb,
        encodingArb,
        tokenAnswers,
        padding,
        fc.boolean(),
        async (secret, encoding, status, pad, oauthJson) => {
          forgetSecrets();
          await expectNothingShown(secret, encoding, async (echo) => {
            clearTokenCache();
            platform.events.length = 0;
            const text = `${pad} grant_type=client_credentials&client_id=${CLIENT_ID}&client_secret=${echo}&x=1`;
            platform.on("POST /oauth/token", () => ({
              status,
              body: oauthJson ? { error: "invalid_client", error_description: text } : text,
            }));
            const client = platform.client({ clientSecret: secret, maxRetries: 0 });
            return textsOf(await client.getDevice("11").catch((e: unknown) => e));
          });
        },
      ),
      { numRuns: 120 },
    );
  });

  it("any endpoint echoing the access token, the refresh token or the client secret", async () => {
    await fc.assert(
      fc.asyncProperty(
        secretArb,
        encodingArb,
        fc.constantFrom("access", "refresh", "client"),
        fc.constantFrom(200, 404, 409, 500, 501),
        fc.constantFrom("GET", "PUT"),
        padding,
        async (secret, encoding, which, status, method, pad) => {
          forgetSecrets();
          await expectNothingShown(secret, encoding, async (echo) => {
            clearTokenCache();
            platform.events.length = 0;
            const access = which === "access" ? secret : "at-fixed-0001";
            platform.on("POST /oauth/token", () => {
              platform.validTokens.add(access);
              return ok({
                access_token: access,
                refresh_token: which === "refresh" ? secret : "rt-fixed-0001",
                expires_in: 3600,
              });
            });
            const body = `<html>${pad} Authorization: Bearer ${echo}</html>`;
            platform.on(`${method} /device/openapi/v1/devices/11`, () => ({ status, body }));
            platform.on("PUT /device/openapi/v1/devices", () => ({ status, body }));
            const client = platform.client({
              clientSecret: which === "client" ? secret : "fixed-client-secret",
              maxRetries: 0,
            });
            const call =
              method === "GET" ? client.getDevice("11") : client.updateDevice({ deviceId: "11", name: "n" });
            return textsOf(await call.catch((e: unknown) => e));
          });
        },
      ),
      { numRuns: 120 },
    );
  });
});

/** An SDK error for a body that echoes `echo` (as a wrong server answers). */
function echoingError(echo: string, pad: string, status: number): DevicePlatformError {
  return errorFromResponse({
    method: "POST",
    path: "/oauth/token",
    attempts: 1,
    status,
    body: undefined,
    bodyText: `${pad}client_secret=${echo}`,
    tokenEndpoint: true,
    baseUrl: "https://platform.example.com",
  });
}

describe("through the package's other exits", () => {
  it("provider diagnostics and failures (both front-ends' words)", async () => {
    await fc.assert(
      fc.asyncProperty(secretArb, encodingArb, padding, async (secret, encoding, pad) => {
        forgetSecrets();
        registerSecret(secret);
        await expectNothingShown(secret, encoding, async (echo) => {
          const lines: string[] = [];
          const sink = {
            info: async (m: string) => void lines.push(m),
            warn: async (m: string) => void lines.push(m),
            status: async (m: string) => void lines.push(m),
          };
          await withLogSink(sink, async () => {
            await log.warn(`the platform said: ${pad}${echo}`);
            await log.status(`${pad}${echo}`);
          });
          const failed = operationFailed("create Device sn=1", echoingError(echo, pad, 500));
          const partial = new PartialSuccessError(`partly done: ${pad}${echo}`, "id", {});
          const bug = new Error(`unexpected: ${pad}${echo}`);
          return [
            ...lines,
            failed.message,
            failed.stack ?? "",
            ...partial.reasons,
            failureMessage(partial),
            failureMessage(bug),
          ].join("\n");
        });
      }),
      { numRuns: 150 },
    );
  });

  it("the CLI's output and the review summary", async () => {
    const dir = mkdtempSync(join(tmpdir(), "echo-review-"));
    await fc.assert(
      fc.asyncProperty(secretArb, encodingArb, padding, async (secret, encoding, pad) => {
        forgetSecrets();
        pinSecret(secret);
        await expectNothingShown(secret, encoding, (echo) => {
          const written: string[] = [];
          const sink = {
            write: (chunk: string) => written.push(chunk) > 0,
          } as unknown as NodeJS.WritableStream;
          redactingStream(sink).write(`devplatform export: error: ${pad}${echo}\n`);
          const preview = join(dir, "preview.json");
          const message = `error: create Device failed: HTTP 500 "${pad}${echo}"`;
          writeFileSync(
            preview,
            JSON.stringify({ steps: [], diagnostics: [{ urn: "urn:x::y", severity: "error", message }] }),
          );
          const { markdown } = summaryOf({ stack: "dev", preview, exitCode: 255 });
          return [...written, markdown].join("\n");
        });
      }),
      { numRuns: 150 },
    );
  });
});
