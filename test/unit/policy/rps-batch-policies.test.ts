/**
 * The pack's RPS URL allow-list and one-serial policies on an RpsFleet (issue #46), in both
 * front-ends' shapes: the dynamic batch's checked `entries` and outputs' `profileUrls`, the plugin's
 * recorded `records` (keyed by serial number) and a program's list.
 */
import { describe, expect, it } from "vitest";
import { oneSerialOneResource } from "../../../policy/policies/one-serial-one-resource";
import { rpsProfileUrl } from "../../../policy/policies/rps-profile-url";
import { dynamicToken, pluginToken } from "../../../policy/resources";
import { FRONT_ENDS, resource, stackViolations, violations } from "./policy-harness";

const ALLOWED = { allowedPrefixes: ["https://rps.example.com/"] };

describe.each(FRONT_ENDS)("an RpsFleet through the $frontEnd front-end", ({ token }) => {
  const key = token("RpsFleet").startsWith("devplatform:") ? "records" : "entries";
  const batch = (records: Record<string, string>) =>
    resource(token, "RpsFleet", "shipment", { fleetName: "shipment", [key]: records });

  it("holds every record's URL to the allow-list, one violation naming the records off it", async () => {
    expect(
      await violations(rpsProfileUrl, batch({ AC0000000001: "https://rps.example.com/p" }), ALLOWED),
    ).toEqual([]);
    const off = batch({
      AC0000000001: "https://rps.example.com/p",
      AC0000000002: "https://rps.example.com.attacker.net/p",
      AC0000000003: "https://elsewhere.example/p",
    });
    expect(await violations(rpsProfileUrl, off, ALLOWED)).toEqual([
      'RpsFleet "shipment": 2 record(s) not on an allowed RPS server (AC0000000002 https://rps.example.com.attacker.net/p, ' +
        "AC0000000003 https://elsewhere.example/p); each profileUrl, resolved, must be under https://rps.example.com/",
    ]);
    expect(await violations(rpsProfileUrl, off)).toEqual([]); // no allow-list configured
  });
});

describe("one serial number, one resource, with RPS batches", () => {
  it("names a batch's serial number another batch, an RpsProfile or a Device declares", async () => {
    const stack = [
      resource(dynamicToken, "RpsFleet", "shipment-1", {
        entries: { AC0000000001: "https://rps.example.com/a", AC0000000002: "https://rps.example.com/a" },
      }),
      resource(pluginToken, "RpsFleet", "shipment-2", {
        records: [{ sn: "ac0000000001", profileUrl: "https://rps.example.com/b" }],
      }),
      resource(pluginToken, "Device", "gw", { sn: "AC0000000002", name: "gw" }),
      resource(dynamicToken, "RpsFleet", "after-up", {
        profileUrls: { AC0000000003: "https://rps.example.com/c" },
      }),
      resource(dynamicToken, "RpsProfile", "rps-3", {
        sn: "AC0000000003",
        profileUrl: "https://rps.example.com/c",
      }),
    ];
    expect((await stackViolations(oneSerialOneResource, stack)).map((v) => v.message)).toEqual([
      'serial number AC0000000001 is declared by RpsFleet "shipment-2" and by RpsFleet "shipment-1"; declare each device in one resource',
      'serial number AC0000000002 is declared by RpsFleet "shipment-1" and by Device "gw"; declare each device in one resource',
      'serial number AC0000000003 is declared by RpsProfile "rps-3" and by RpsFleet "after-up"; declare each device in one resource',
    ]);
  });
});
