/**
 * What the plugin answers the engine beyond property values: a PluginDiff as a DiffResponse (paths,
 * kinds, replaces, stables), failures as gRPC errors (a partial success carries
 * ErrorResourceInitFailed with id, outputs, inputs and reasons; an expected failure its message
 * alone; a bug its stack), the kind and name of a request from its type token and URN, and the
 * DeviceFleet input adapter.
 */
import { describe, expect, it } from "vitest";
import { diffResponse } from "../../../provider/plugin/server/diff";
import { serviceError } from "../../../provider/plugin/server/errors";
import {
  checkedSecrets,
  implementationInputs,
  kindOf,
  urnParts,
} from "../../../provider/plugin/server/kinds";
import { invokeFailures } from "../../../provider/plugin/server/invoke";
import { anyPb, providerPb, statusPb } from "../../../provider/plugin/server/rpc";
import { PartialSuccessError, ResourceOperationError } from "../../../provider/shared/errors";

describe("DiffResponse", () => {
  it("carries every path with its kind, the top-level properties, replaces and stables", () => {
    const response = diffResponse({
      changes: true,
      replaces: ["sn"],
      stables: ["deviceId"],
      deleteBeforeReplace: true,
      detailedDiff: {
        sn: { kind: "UPDATE_REPLACE", inputDiff: true },
        'devices["240000A10003"].name': { kind: "UPDATE", inputDiff: true },
        "tags[1]": { kind: "ADD", inputDiff: true },
      },
    });
    const sent = providerPb.DiffResponse.deserializeBinary(response.serializeBinary());
    expect(sent.getChanges()).toBe(providerPb.DiffResponse.DiffChanges.DIFF_SOME);
    expect(sent.getReplacesList()).toEqual(["sn"]);
    expect(sent.getStablesList()).toEqual(["deviceId"]);
    expect(sent.getDeletebeforereplace()).toBe(true);
    expect(sent.getHasdetaileddiff()).toBe(true);
    expect(sent.getDiffsList()).toEqual(["sn", "devices", "tags"]);
    const kinds: Record<string, number> = {};
    sent.getDetaileddiffMap().forEach((diff, path) => (kinds[path] = diff.getKind()));
    expect(kinds).toEqual({
      sn: providerPb.PropertyDiff.Kind.UPDATE_REPLACE,
      'devices["240000A10003"].name': providerPb.PropertyDiff.Kind.UPDATE,
      "tags[1]": providerPb.PropertyDiff.Kind.ADD,
    });
  });

  it("says no change when there is none", () => {
    const response = diffResponse({
      changes: false,
      replaces: [],
      stables: [],
      deleteBeforeReplace: false,
      detailedDiff: {},
    });
    expect(response.getChanges()).toBe(providerPb.DiffResponse.DiffChanges.DIFF_NONE);
    expect(response.getDiffsList()).toEqual([]);
  });
});

describe("gRPC errors", () => {
  it("a partial success carries ErrorResourceInitFailed: id, outputs, inputs (secrets wrapped), reasons", () => {
    const error = new PartialSuccessError("create DeviceFleet f failed for 1 of 3 device(s)", "f", {
      fleetName: "f",
      deviceIds: { "240000A10001": "1735000000000000001" },
    });
    const grpcError = serviceError(error, {
      inputs: { fleetName: "f", note: "s" },
      secrets: new Set(["note"]),
    });
    expect(grpcError.details).toBe("create DeviceFleet f failed for 1 of 3 device(s)");
    const [bytes] = grpcError.metadata?.get("grpc-status-details-bin") ?? [];
    const status = statusPb.Status.deserializeBinary(new Uint8Array(bytes as Buffer));
    const [any] = status.getDetailsList() as InstanceType<typeof anyPb.Any>[];
    expect(any?.getTypeName()).toBe("pulumirpc.ErrorResourceInitFailed");
    const detail = providerPb.ErrorResourceInitFailed.deserializeBinary(any?.getValue_asU8() as Uint8Array);
    expect(detail.getId()).toBe("f");
    expect(detail.getReasonsList()).toEqual(["create DeviceFleet f failed for 1 of 3 device(s)"]);
    expect(detail.getProperties()?.toJavaScript()).toEqual({
      fleetName: "f",
      deviceIds: { "240000A10001": "1735000000000000001" },
    });
    expect(detail.getInputs()?.toJavaScript()).toEqual({
      fleetName: "f",
      note: { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", value: "s" },
    });
  });

  it("an expected failure is its message alone, a bug keeps its stack, neither carries details", () => {
    const expected = serviceError(new ResourceOperationError("update Device deviceId=1 failed: HTTP 409"));
    expect(expected.details).toBe("update Device deviceId=1 failed: HTTP 409");
    expect(expected.metadata?.get("grpc-status-details-bin")).toEqual([]);
    const bug = serviceError(new TypeError("x is undefined"));
    expect(bug.details).toMatch(/^TypeError: x is undefined\n\s+at /);
  });
});

describe("requests", () => {
  const urn = "urn:pulumi:dev::proj::my:component$devplatform:index:DeviceFleet::site::a";

  it("take the kind from the type token or the URN, and the name from the URN", () => {
    expect(urnParts(urn)).toEqual({ type: "devplatform:index:DeviceFleet", name: "site::a" });
    expect(kindOf({ urn })).toBe("DeviceFleet");
    expect(kindOf({ type: "devplatform:index:RpsProfile", urn })).toBe("RpsProfile");
    expect(() => kindOf({ type: "devplatform:index:Gadget", urn })).toThrow(
      "unknown resource type devplatform:index:Gadget; this provider has devplatform:index:Device, devplatform:index:DeviceFleet, devplatform:index:RpsProfile, devplatform:index:RpsFleet, devplatform:index:DeviceConfig",
    );
  });

  it("give a DeviceFleet its name from the URN and keep its devices list; other kinds as they are", () => {
    const devices = [{ sn: "240000A10001", name: "a" }];
    expect(implementationInputs("DeviceFleet", urn, { devices, fleetName: "other" })).toEqual({
      devices,
      fleetName: "site::a",
    });
    expect(implementationInputs("Device", urn, { sn: "240000A10001" })).toEqual({ sn: "240000A10001" });
    expect([...checkedSecrets("DeviceFleet", new Set(["devices"]))].sort()).toEqual(["devices", "entries"]);
  });

  it("turn a function's refused arguments into failures naming them, and leave bugs to fail", () => {
    const refused = Object.assign(new Error("bad"), {
      failures: [{ property: "sn", reason: "getDevice: argument sn must be 12 to 16 hex digits" }],
    });
    expect(invokeFailures(refused)).toEqual([
      { property: "sn", reason: "getDevice: argument sn must be 12 to 16 hex digits" },
    ]);
    expect(invokeFailures(new ResourceOperationError("getDevice: no device"))).toEqual([
      { property: "", reason: "getDevice: no device" },
    ]);
    expect(invokeFailures(new TypeError("bug"))).toBeUndefined();
  });
});
