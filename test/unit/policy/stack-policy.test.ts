/**
 * The stack policy "one serial number, one resource" over fake stacks of both front-ends, with
 * what the engine hands a stack policy: outputs. At preview, a plugin fleet's `devices` is keyed by
 * serial number with unknown values, a dynamic fleet's outputs are its checked inputs (`entries`);
 * after an `up`, both answer `devices` keyed by serial number. The pack's tokens are the provider's.
 */
import { describe, expect, it } from "vitest";
import { oneSerialOneResource } from "../../../policy/policies/one-serial-one-resource";
import { POLICIES } from "../../../policy/policies";
import { dynamicToken, KINDS, pluginToken } from "../../../policy/resources";
import { RESOURCE_TOKENS } from "../../../provider/plugin/server/kinds";
import { UNKNOWN } from "../../../provider/shared/input-checks";
import { resource, stackViolations } from "./policy-harness";

describe("one serial number, one resource", () => {
  it("names both resources of a serial number declared twice, across front-ends and kinds", async () => {
    const stack = [
      resource(pluginToken, "DeviceFleet", "site-a", { devices: { "240000A10001": { deviceId: UNKNOWN } } }),
      resource(dynamicToken, "DeviceFleet", "site-b", {
        entries: { "240000a10001": { name: "x" }, "240000A10002": {} },
      }),
      resource(pluginToken, "Device", "gw-1", { sn: "240000A10002", name: "gw" }),
      resource(dynamicToken, "RpsProfile", "rps-1", {
        sn: "240000A10003",
        profileUrl: "https://rps.example.com/p",
      }),
      resource(pluginToken, "Device", "gw-3", { sn: "240000A10003", name: "gw" }),
      resource(dynamicToken, "Device", "gw-4", { sn: "240000A10004", name: "alone" }),
    ];
    expect(await stackViolations(oneSerialOneResource, stack)).toEqual([
      {
        message:
          'serial number 240000A10001 is declared by DeviceFleet "site-b" and by DeviceFleet "site-a"; declare each device in one resource',
        urn: "urn:pulumi:dev::fleet::pulumi-nodejs:dynamic/devplatform:DeviceFleet::site-b",
      },
      {
        message:
          'serial number 240000A10002 is declared by DeviceFleet "site-b" and by Device "gw-1"; declare each device in one resource',
        urn: "urn:pulumi:dev::fleet::pulumi-nodejs:dynamic/devplatform:DeviceFleet::site-b",
      },
      {
        message:
          'serial number 240000A10003 is declared by RpsProfile "rps-1" and by Device "gw-3"; declare each device in one resource',
        urn: "urn:pulumi:dev::fleet::pulumi-nodejs:dynamic/devplatform:RpsProfile::rps-1",
      },
    ]);
  });

  it("reads a dynamic fleet's outputs after an up, and a program's list", async () => {
    const stack = [
      resource(dynamicToken, "DeviceFleet", "a", {
        devices: { "240000A10001": { deviceId: "1" } },
        applied: "{}",
      }),
      resource(pluginToken, "DeviceFleet", "b", { devices: [{ sn: "240000A10001", name: "x" }] }),
    ];
    expect((await stackViolations(oneSerialOneResource, stack)).map((v) => v.urn)).toEqual([
      "urn:pulumi:dev::fleet::devplatform:index:DeviceFleet::b",
    ]);
  });

  it("leaves out a resource whose serial numbers are unknown, not the whole stack", async () => {
    // The engine's marker, behind the engine's proxy: reading `sn` throws "can't be known during preview".
    const stack = [
      resource(pluginToken, "Device", "computed", { sn: UNKNOWN, name: "c" }),
      resource(pluginToken, "Device", "gw-1", { sn: "240000A10001", name: "a" }),
      resource(pluginToken, "Device", "gw-2", { sn: "240000A10001", name: "b" }),
    ];
    expect(await stackViolations(oneSerialOneResource, stack)).toHaveLength(1);
  });
});

describe("the pack", () => {
  it("knows the provider plugin's tokens and the dynamic resources' of every kind", () => {
    expect(KINDS.map(pluginToken).sort()).toEqual(Object.values(RESOURCE_TOKENS).sort());
    expect(KINDS.map(dynamicToken)).toContain("pulumi-nodejs:dynamic/devplatform:DeviceFleet");
  });

  it("has five policies of distinct names, each configurable", () => {
    const names = POLICIES.map((p) => p.name);
    expect(new Set(names).size).toBe(5);
    expect(names.every((name) => name.startsWith("devplatform-"))).toBe(true);
  });
});
