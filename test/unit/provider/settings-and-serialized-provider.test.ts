import * as pulumi from "@pulumi/pulumi";
import { describe, expect, it } from "vitest";
import { serializedProvider } from "../../../provider/dynamic/serialized-provider";
import { resolveSettings } from "../../../provider/platform-access/settings";
import { ResourceOperationError } from "../../../provider/shared/errors";
import { providerImplementation } from "../../../provider/dynamic/implementations";
import { programRan, resetOwnership } from "../../../provider/guardrails/ownership";
import { configureRuntime } from "../../../provider/platform-access/platform-client";

const config: Record<string, string> = {
  "devplatform:baseUrl": "https://platform.example.com",
  "devplatform:clientId": "id",
  "devplatform:clientSecret": "s3cret-value",
};

describe("provider settings", () => {
  it("reads stack config first, then the environment, with v1 by default", () => {
    const settings = resolveSettings((k) => config[k], {
      DEVPLATFORM_CLIENT_ID: "from-env",
      DEVPLATFORM_API_VERSION: "v1.0",
    });
    expect(settings).toEqual({
      ...{ baseUrl: "https://platform.example.com", clientId: "id", clientSecret: "s3cret-value" },
      apiVersion: "v1.0",
      maxRetries: 10,
      rateLimitWait: 600,
      countReleases: false,
      ownerTag: "pulumi-stack:",
    });
    expect(resolveSettings((k) => config[k], {}).apiVersion).toBe("v1");
  });

  it("takes countReleases as true or false, from config or DEVPLATFORM_COUNT_RELEASES, and refuses anything else", () => {
    const withCount = (value: string) => (k: string) =>
      ({ ...config, "devplatform:countReleases": value })[k];
    expect(resolveSettings(withCount("true"), {}).countReleases).toBe(true);
    expect(resolveSettings(withCount("false"), {}).countReleases).toBe(false);
    expect(resolveSettings((k) => config[k], { DEVPLATFORM_COUNT_RELEASES: "true" }).countReleases).toBe(
      true,
    );
    for (const bad of ["yes", "1", "TRUE!"]) {
      expect(() => resolveSettings(withCount(bad), {})).toThrow(
        `devplatform:countReleases must be true or false, got "${bad}"`,
      );
    }
  });

  it("takes maxRetries from config or DEVPLATFORM_MAX_RETRIES, and refuses what is not a small whole number", () => {
    expect(resolveSettings((k) => config[k], { DEVPLATFORM_MAX_RETRIES: "3" }).maxRetries).toBe(3);
    expect(resolveSettings((k) => ({ ...config, "devplatform:maxRetries": "0" })[k], {}).maxRetries).toBe(0);
    for (const bad of ["-1", "2.5", "many", "101"]) {
      expect(() => resolveSettings((k) => config[k], { DEVPLATFORM_MAX_RETRIES: bad })).toThrow(
        new RegExp(
          `DEVPLATFORM_MAX_RETRIES \\(the fallback of devplatform:maxRetries\\) must be a whole number from 0 to 100, got "${bad}"`,
        ),
      );
    }
  });

  it("takes rateLimitWait (seconds, default 600) from config or DEVPLATFORM_RATE_LIMIT_WAIT, up to a day", () => {
    expect(resolveSettings((k) => config[k], {}).rateLimitWait).toBe(600);
    expect(resolveSettings((k) => config[k], { DEVPLATFORM_RATE_LIMIT_WAIT: "90" }).rateLimitWait).toBe(90);
    const zero = resolveSettings((k) => ({ ...config, "devplatform:rateLimitWait": "0" })[k], {});
    expect(zero.rateLimitWait).toBe(0);
    for (const bad of ["-1", "2.5", "soon", "86401"]) {
      expect(() => resolveSettings((k) => config[k], { DEVPLATFORM_RATE_LIMIT_WAIT: bad })).toThrow(
        `DEVPLATFORM_RATE_LIMIT_WAIT (the fallback of devplatform:rateLimitWait) must be a whole number of seconds from 0 to 86400, got "${bad}"`,
      );
    }
  });

  it("falls back to DEVPLATFORM_* variables", () => {
    const settings = resolveSettings(() => undefined, {
      DEVPLATFORM_BASE_URL: "https://p.example.com",
      DEVPLATFORM_CLIENT_ID: "i",
      DEVPLATFORM_CLIENT_SECRET: "s",
    });
    expect(settings.baseUrl).toBe("https://p.example.com");
  });

  it("names every missing setting and how to set it, without any value", () => {
    expect(() =>
      resolveSettings((k) => (k === "devplatform:clientSecret" ? "s3cret-value" : undefined), {}),
    ).toThrow(
      /devplatform:baseUrl \(or DEVPLATFORM_BASE_URL\), devplatform:clientId \(or DEVPLATFORM_CLIENT_ID\)/,
    );
    try {
      resolveSettings((k) => (k === "devplatform:clientSecret" ? "s3cret-value" : undefined), {});
    } catch (error) {
      expect(String(error)).not.toContain("s3cret-value");
      expect((error as Error).stack).not.toMatch(/\n\s+at /);
    }
  });

  it("gives the command that sets each missing key, the client id's included", () => {
    expect(() => resolveSettings(() => undefined, {})).toThrow(
      "the device platform provider is not configured: set devplatform:baseUrl (or DEVPLATFORM_BASE_URL), " +
        "devplatform:clientId (or DEVPLATFORM_CLIENT_ID), devplatform:clientSecret (or DEVPLATFORM_CLIENT_SECRET); " +
        "e.g. `pulumi config set devplatform:baseUrl https://…`, `pulumi config set devplatform:clientId …` and " +
        "`pulumi config set --secret devplatform:clientSecret` (it prompts for the secret)",
    );
    const onlyId = (k: string) => (k === "devplatform:clientId" ? undefined : "https://platform.example.com");
    expect(() => resolveSettings(onlyId, {})).toThrow(
      /set devplatform:clientId \(or DEVPLATFORM_CLIENT_ID\); e\.g\. `pulumi config set devplatform:clientId …`$/,
    );
  });

  const withBaseUrl = (baseUrl: string) => (k: string) => (k === "devplatform:baseUrl" ? baseUrl : config[k]);

  it.each([
    ["no scheme", "example.com", /devplatform:baseUrl must be an absolute URL with its scheme/],
    ["a host:port without scheme", "platform.example.com:8443", /must be an absolute URL with its scheme/],
    ["a non-http scheme", "ftp://platform.example.com", /devplatform:baseUrl must use https:\/\/, not ftp:/],
    [
      "plain http to a remote host",
      "http://platform.example.com",
      /devplatform:baseUrl must use https:\/\/ \(plain http:\/\/ is allowed only for loopback hosts\)/,
    ],
    [
      "user-info",
      "https://user:pw-s3cret@platform.example.com",
      /devplatform:baseUrl must not contain credentials/,
    ],
    ["a query", "https://platform.example.com/?access_token=tok-s3cret", /must not contain a query string/],
    [
      "a fragment",
      "https://platform.example.com/#frag-s3cret",
      /must not contain a query string or fragment/,
    ],
  ])(
    "refuses a base URL with %s, naming the key and the rule, never echoing a credential",
    (_what, url, rule) => {
      let error: Error | undefined;
      try {
        resolveSettings(withBaseUrl(url), {});
      } catch (e) {
        error = e as Error;
      }
      expect(error?.name).toBe("ProviderConfigurationError");
      expect(error?.message).toMatch(rule);
      expect(error?.message).not.toMatch(/s3cret/);
      expect(error?.stack).not.toMatch(/\n\s+at /);
    },
  );

  it("shows the URL with user-info and query replaced by ***", () => {
    expect(() =>
      resolveSettings(withBaseUrl("https://user:pw-s3cret@platform.example.com/x?t=1"), {}),
    ).toThrow('got "https://***@platform.example.com/x?***"');
  });

  it("names the environment fallback when the base URL came from it", () => {
    expect(() =>
      resolveSettings((k) => (k === "devplatform:baseUrl" ? undefined : config[k]), {
        DEVPLATFORM_BASE_URL: "example.com",
      }),
    ).toThrow(/^DEVPLATFORM_BASE_URL \(the fallback of devplatform:baseUrl\) must be an absolute URL/);
  });

  it("accepts https anywhere and plain http on loopback", () => {
    for (const url of ["https://p.example.com/base", "http://127.0.0.1:8080", "http://localhost:1"]) {
      expect(resolveSettings(withBaseUrl(url), {}).baseUrl).toBe(url);
    }
  });

  it("counts a credential of spaces alone as missing", () => {
    expect(() => resolveSettings((k) => (k === "devplatform:clientSecret" ? "   " : config[k]), {})).toThrow(
      /set devplatform:clientSecret \(or DEVPLATFORM_CLIENT_SECRET\)/,
    );
  });

  it("rejects an unknown API version", () => {
    expect(() => resolveSettings((k) => ({ ...config, "devplatform:apiVersion": "v2" })[k], {})).toThrow(
      /devplatform:apiVersion must be "v1" or "v1.0", got "v2"/,
    );
  });
});

describe("serialized provider", () => {
  it("serializes to a few hundred bytes that load the package by name and hold no path or secret", async () => {
    const text = await pulumi.runtime.serializeFunction(() => serializedProvider("Device"), {
      isFactoryFunction: false,
    });
    expect(text.text).toContain('"pulumi-devplatform"');
    expect(text.text).toContain('"Device"');
    expect(text.text).not.toContain(process.cwd());
    expect(text.text.length).toBeLessThan(4096);
  });
});

describe("serialized provider identity", () => {
  it("is one object per resource kind, so Pulumi serializes it once per program", () => {
    expect(serializedProvider("Device")).toBe(serializedProvider("Device"));
    expect(serializedProvider("Device")).not.toBe(serializedProvider("RpsProfile"));
  });
});

describe("expected failures as the dynamic provider host prints them", () => {
  it("print the message once (`${error}: ${stack}`) and no call frames", () => {
    const error = new ResourceOperationError("read Device deviceId=1 failed: HTTP 404");
    expect(`${error}: ${error.stack}`).toBe(
      "ResourceOperationError: read Device deviceId=1 failed: HTTP 404",
    );
  });
});

describe("the implementation the serialized provider calls", () => {
  configureRuntime({
    config: {
      get: (key: string) => config[key],
      require: (key: string) => config[key] as string,
    },
  });

  it("notes that the program ran when the engine checks a resource (never in destroy)", async () => {
    resetOwnership();
    expect(programRan()).toBe(false);
    await providerImplementation("Device").check({}, { sn: "240000A10001", name: "n" });
    expect(programRan()).toBe(true);
  });
});
