/**
 * The plugin's provider configuration, on the same rules as the dynamic front-end: CheckConfig
 * names each bad key (and never a secret's value), DiffConfig changes in place, Configure takes the
 * provider's own inputs before the legacy variables and the environment.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { checkConfig, diffConfig, settingsOfRequest } from "../../../provider/plugin/server/config";
import { secret, toStruct } from "../../../provider/plugin/server/properties";
import { providerPb } from "../../../provider/plugin/server/rpc";
import { UNKNOWN } from "../../../provider/shared/input-checks";

const DEFAULT = "urn:pulumi:dev::p::pulumi:providers:devplatform::default";
const EXPLICIT = "urn:pulumi:dev::p::pulumi:providers:devplatform::app-b";
const GOOD = {
  baseUrl: "https://platform.example.com",
  clientId: "app",
  clientSecret: secret("s3cret-value"),
};

function checkRequest(urn: string, news: Record<string, unknown>) {
  const request = new providerPb.CheckRequest();
  request.setUrn(urn);
  request.setNews(toStruct(news));
  return request;
}

async function failuresOf(urn: string, news: Record<string, unknown>) {
  const response = await checkConfig(checkRequest(urn, news));
  return response.getFailuresList().map((f) => ({ property: f.getProperty(), reason: f.getReason() }));
}

const saved = { ...process.env };
beforeEach(() => {
  process.env = Object.fromEntries(Object.entries(saved).filter(([key]) => !key.startsWith("DEVPLATFORM_")));
});
afterEach(() => {
  process.env = { ...saved };
});

describe("CheckConfig", () => {
  it("accepts good settings and answers them with clientSecret secret", async () => {
    const response = await checkConfig(
      checkRequest(DEFAULT, { ...GOOD, clientSecret: "plain", version: "0.1.0" }),
    );
    expect(response.getFailuresList()).toEqual([]);
    expect(response.getInputs()?.toJavaScript()).toMatchObject({
      clientSecret: {
        "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270",
        value: "plain",
      },
    });
  });

  it("names each bad key of the default provider as stack config, without the secret", async () => {
    const failures = await failuresOf(DEFAULT, {
      baseUrl: "ftp://platform.example.com",
      clientSecret: secret("s3cret-value"),
      apiVersion: "v2",
      maxRetries: "lots",
    });
    expect(failures.map((f) => f.property)).toEqual(["clientId", "baseUrl", "apiVersion", "maxRetries"]);
    expect(failures[0]?.reason).toMatch(/set devplatform:clientId \(or DEVPLATFORM_CLIENT_ID\)/);
    expect(failures[1]?.reason).toMatch(/^devplatform:baseUrl /);
    expect(failures[2]?.reason).toBe('devplatform:apiVersion must be "v1" or "v1.0", got "v2"');
    expect(failures[3]?.reason).toBe(
      'devplatform:maxRetries must be a whole number from 0 to 100, got "lots"',
    );
    expect(JSON.stringify(failures)).not.toContain("s3cret-value");
  });

  it("names an explicit provider's input, takes numbers as numbers, and rejects unknown keys", async () => {
    const failures = await failuresOf(EXPLICIT, { ...GOOD, maxRetries: 101, baseURL: "x" });
    expect(failures).toEqual([
      {
        property: "maxRetries",
        reason: 'maxRetries (of provider app-b) must be a whole number from 0 to 100, got "101"',
      },
      {
        property: "baseURL",
        reason:
          "baseURL (of provider app-b) is not a setting of the device platform provider; expected one of: baseUrl, clientId, clientSecret, apiVersion, maxRetries, rateLimitWait, maxRemovals, countReleases, ownerTag",
      },
    ]);
    expect(await failuresOf(EXPLICIT, { ...GOOD, maxRetries: 3 })).toEqual([]);
  });

  it("falls back to DEVPLATFORM_* and leaves unknown values for later", async () => {
    process.env.DEVPLATFORM_CLIENT_ID = "from-env";
    expect(await failuresOf(DEFAULT, { baseUrl: GOOD.baseUrl, clientSecret: "x" })).toEqual([]);
    expect(await failuresOf(EXPLICIT, { ...GOOD, baseUrl: UNKNOWN })).toEqual([]);
  });
});

describe("DiffConfig", () => {
  it("reports changed settings as in-place updates, never a replacement", async () => {
    const request = new providerPb.DiffRequest();
    request.setUrn(EXPLICIT);
    request.setOlds(toStruct({ ...GOOD, maxRetries: 3 }));
    request.setNews(
      toStruct({ ...GOOD, baseUrl: "https://other.example.com", clientSecret: secret("rotated") }),
    );
    const response = await diffConfig(request);
    expect(response.getChanges()).toBe(providerPb.DiffResponse.DiffChanges.DIFF_SOME);
    expect(response.getReplacesList()).toEqual([]);
    expect(response.getDiffsList()).toEqual(["baseUrl", "clientSecret", "maxRetries"]);
    // Through the wire, as the engine reads it.
    const sent = providerPb.DiffResponse.deserializeBinary(response.serializeBinary());
    const kinds: Record<string, number> = {};
    sent.getDetaileddiffMap().forEach((diff, key) => (kinds[key] = diff.getKind()));
    expect(kinds).toEqual({
      baseUrl: providerPb.PropertyDiff.Kind.UPDATE,
      clientSecret: providerPb.PropertyDiff.Kind.UPDATE,
      maxRetries: providerPb.PropertyDiff.Kind.DELETE,
    });
  });

  it("finds no change when only the secret wrapping differs", async () => {
    const request = new providerPb.DiffRequest();
    request.setOlds(toStruct({ ...GOOD, clientSecret: "s3cret-value" }));
    request.setNews(toStruct(GOOD));
    expect((await diffConfig(request)).getChanges()).toBe(providerPb.DiffResponse.DiffChanges.DIFF_NONE);
  });
});

describe("Configure's settings", () => {
  it("take the provider's inputs first, then the variables, then the environment", () => {
    process.env.DEVPLATFORM_MAX_RETRIES = "7";
    const request = new providerPb.ConfigureRequest();
    request.setUrn(EXPLICIT);
    request.setArgs(toStruct({ baseUrl: GOOD.baseUrl, clientSecret: secret("from-args") }));
    request.getVariablesMap().set("devplatform:config:clientId", "from-variables");
    request.getVariablesMap().set("devplatform:config:clientSecret", "not-this");
    expect(settingsOfRequest(request)).toEqual({
      baseUrl: GOOD.baseUrl,
      clientId: "from-variables",
      clientSecret: "from-args",
      apiVersion: "v1",
      maxRetries: 7,
      rateLimitWait: 600,
      countReleases: false,
      ownerTag: "pulumi-stack:",
    });
  });

  it("refuse a bad setting naming the explicit provider's key", () => {
    const request = new providerPb.ConfigureRequest();
    request.setUrn(EXPLICIT);
    request.setArgs(toStruct({ ...GOOD, apiVersion: "v3" }));
    expect(() => settingsOfRequest(request)).toThrow(
      'apiVersion (of provider app-b) must be "v1" or "v1.0", got "v3"',
    );
  });
});
