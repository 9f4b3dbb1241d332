/**
 * Bad provider configuration fails every resource kind's `check` — the step `pulumi preview` runs —
 * with one failure naming the key and the rule, before any request (the configured URL is one no
 * request could reach unnoticed: any attempt would fail the test with a transport error instead).
 */
import { describe, expect, it } from "vitest";
import { providerImplementation } from "../../../provider/dynamic/implementations";
import { configureRuntime } from "../../../provider/platform-access/platform-client";
import type { ResourceKind } from "../../../provider/kinds";

const settings: Record<string, string> = {
  "devplatform:baseUrl": "https://user:pw-s3cret@platform.example.com",
  "devplatform:clientId": "id",
  "devplatform:clientSecret": "client-s3cret",
};
configureRuntime({
  config: { get: (key: string) => settings[key], require: (key: string) => settings[key] as string },
});

/** Inputs each kind would accept with a usable configuration (DeviceConfig would then read models). */
const INPUTS: Record<ResourceKind, Record<string, unknown>> = {
  Device: { sn: "240000A10001", name: "n" },
  DeviceFleet: { fleetName: "f", devices: JSON.stringify([{ sn: "240000A10001", name: "n" }]) },
  RpsProfile: { sn: "240000A10001", profileUrl: "https://rps.example.com/p" },
  RpsFleet: {
    fleetName: "b",
    records: JSON.stringify([{ sn: "AC0000A10001", profileUrl: "https://rps.example.com/p" }]),
  },
  DeviceConfig: { deviceIds: ["1735000000000000001"], properties: { reportInterval: 900 } },
};

describe("a bad devplatform:baseUrl at check", () => {
  it.each(Object.keys(INPUTS) as ResourceKind[])(
    "%s: one failure naming the key and the rule, the URL masked",
    async (kind) => {
      const result = await providerImplementation(kind).check({}, INPUTS[kind]);
      expect(result.failures).toEqual([
        {
          property: "",
          reason:
            "devplatform:baseUrl must not contain credentials (user:password@); set the client id and secret on " +
            'their own, got "https://***@platform.example.com"',
        },
      ]);
      expect(JSON.stringify(result.failures)).not.toContain("s3cret");
    },
  );
});
