import * as pulumi from "@pulumi/pulumi";
import { describe, expect, it } from "vitest";
import { serializedProvider } from "../../../provider/runtime/serialized-provider";
import { resolveSettings } from "../../../provider/runtime/settings";
import { ResourceOperationError } from "../../../provider/shared/errors";
import { providerImplementation } from "../../../provider/runtime/implementations";
import { programRan, resetOwnership } from "../../../provider/runtime/ownership";

describe("provider settings", () => {
  const config: Record<string, string> = {
    "devplatform:baseUrl": "https://platform.example.com",
    "devplatform:clientId": "id",
    "devplatform:clientSecret": "s3cret-value",
  };

  it("reads stack config first, then the environment, with v1 by default", () => {
    const settings = resolveSettings((k) => config[k], {
      DEVPLATFORM_CLIENT_ID: "from-env",
      DEVPLATFORM_API_VERSION: "v1.0",
    });
    expect(settings).toEqual({
      ...{ baseUrl: "https://platform.example.com", clientId: "id", clientSecret: "s3cret-value" },
      apiVersion: "v1.0",
      maxRetries: 10,
    });
    expect(resolveSettings((k) => config[k], {}).apiVersion).toBe("v1");
  });

  it("takes maxRetries from config or DEVPLATFORM_MAX_RETRIES, and refuses what is not a small whole number", () => {
    expect(resolveSettings((k) => config[k], { DEVPLATFORM_MAX_RETRIES: "3" }).maxRetries).toBe(3);
    expect(resolveSettings((k) => ({ ...config, "devplatform:maxRetries": "0" })[k], {}).maxRetries).toBe(0);
    for (const bad of ["-1", "2.5", "many", "101"]) {
      expect(() => resolveSettings((k) => config[k], { DEVPLATFORM_MAX_RETRIES: bad })).toThrow(
        new RegExp(`devplatform:maxRetries must be a whole number from 0 to 100, got "${bad}"`),
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
  it("notes that the program ran when the engine checks a resource (never in destroy)", async () => {
    resetOwnership();
    expect(programRan()).toBe(false);
    await providerImplementation("Device").check({}, { sn: "240000A10001", name: "n" });
    expect(programRan()).toBe(true);
  });
});
