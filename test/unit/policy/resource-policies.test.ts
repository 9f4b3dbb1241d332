/**
 * Each resource policy of the pack against fake arguments, in both front-ends' tokens and shapes:
 * the plugin's fleet keeps its entries in `devices`, the dynamic fleet's checked inputs in
 * `entries` (both keyed by serial number); a Device, an RpsProfile and a DeviceConfig have the
 * same inputs in both.
 */
import { describe, expect, it } from "vitest";
import { fleetMaxRemovals } from "../../../policy/policies/fleet-max-removals";
import { projectAndTags } from "../../../policy/policies/project-and-tags";
import { propertyRanges } from "../../../policy/policies/property-ranges";
import { rpsProfileUrl } from "../../../policy/policies/rps-profile-url";
import { FRONT_ENDS, remediation, resource, violations } from "./policy-harness";

const ALLOWED = { allowedPrefixes: ["https://rps.example.com/", "https://rps-eu.example.com/profiles/"] };

describe.each(FRONT_ENDS)("the $frontEnd front-end", ({ token }) => {
  const fleetKey = token("DeviceFleet").startsWith("devplatform:") ? "devices" : "entries";
  const fleet = (entries: Record<string, object>, settings: object = {}) =>
    resource(token, "DeviceFleet", "site-a", { fleetName: "site-a", [fleetKey]: entries, ...settings });

  describe("rps profile URL", () => {
    const profile = (profileUrl: string) =>
      resource(token, "RpsProfile", "rps-1", { sn: "240000A10001", profileUrl });

    it("accepts a URL under an allowed prefix and names the prefixes otherwise", async () => {
      expect(await violations(rpsProfileUrl, profile("https://rps.example.com/p/1"), ALLOWED)).toEqual([]);
      expect(
        await violations(rpsProfileUrl, profile("https://rps.example.com.attacker.net/p"), ALLOWED),
      ).toEqual([
        'RpsProfile "rps-1": profileUrl https://rps.example.com.attacker.net/p is not on an allowed RPS server; ' +
          "it must start with https://rps.example.com/ or https://rps-eu.example.com/profiles/",
      ]);
    });

    it("checks nothing without prefixes, and refuses a prefix that is no https URL with a host", async () => {
      expect(await violations(rpsProfileUrl, profile("https://anywhere.example/p"))).toEqual([]);
      await expect(
        violations(rpsProfileUrl, profile("https://x/"), { allowedPrefixes: ["rps.example.com"] }),
      ).rejects.toThrow(
        /policy devplatform-rps-profile-url: its configuration is wrong: allowedPrefixes.0: must be an https URL/,
      );
    });
  });

  describe("project and tags", () => {
    const config = { requiredTags: ["managed"], defaultProject: "plant-1" };

    it("tells a Device without project or required tag", async () => {
      const device = resource(token, "Device", "gw-1", { sn: "240000A10001", name: "gw", tags: ["x"] });
      expect(await violations(projectAndTags, device, config)).toEqual([
        'Device "gw-1": no project; missing the required tag managed',
      ]);
      const good = resource(token, "Device", "gw-1", {
        sn: "240000A10001",
        name: "gw",
        project: "p",
        tags: ["managed"],
      });
      expect(await violations(projectAndTags, good, config)).toEqual([]);
    });

    it("tells a fleet once per problem, with its serial numbers", async () => {
      const props = fleet({
        "240000A10001": { name: "a", project: "p", tags: ["managed"] },
        "240000A10002": { name: "b" },
        "240000A10003": { name: "c", project: "other", tags: ["managed"] },
      });
      expect(await violations(projectAndTags, props, { ...config, allowedProjects: ["p"] })).toEqual([
        'DeviceFleet "site-a": 1 device with no project (240000A10002)',
        'DeviceFleet "site-a": 1 device with missing the required tag managed (240000A10002)',
        'DeviceFleet "site-a": 1 device with project "other" is not one of p (240000A10003)',
      ]);
    });

    it("remediates: the default project and the missing tags, on a Device and on each fleet entry", async () => {
      const device = resource(token, "Device", "gw-1", { sn: "240000A10001", name: "gw", tags: ["x"] });
      expect(await remediation(projectAndTags, device, config)).toEqual({
        sn: "240000A10001",
        name: "gw",
        project: "plant-1",
        tags: ["x", "managed"],
      });
      const props = fleet({
        "240000A10001": { name: "a", project: "p", tags: ["managed"] },
        "240000A10002": { name: "b" },
      });
      expect(await remediation(projectAndTags, props, config)).toEqual({
        fleetName: "site-a",
        [fleetKey]: {
          "240000A10001": { name: "a", project: "p", tags: ["managed"] },
          "240000A10002": { name: "b", project: "plant-1", tags: ["managed"] },
        },
      });
    });

    it("changes nothing it cannot: no default project, or a tag over the platform's 20", async () => {
      const full = Array.from({ length: 20 }, (_, i) => `t${i}`);
      const device = resource(token, "Device", "gw-1", {
        sn: "240000A10001",
        name: "gw",
        project: "p",
        tags: full,
      });
      expect(await remediation(projectAndTags, device, { requiredTags: ["managed"] })).toBeUndefined();
      const bare = resource(token, "Device", "gw-2", { sn: "240000A10002", name: "gw" });
      expect(await remediation(projectAndTags, bare, {})).toBeUndefined();
    });
  });

  describe("fleet maxRemovals", () => {
    it("tells a fleet without maxRemovals, or above the team's maximum", async () => {
      expect(await violations(fleetMaxRemovals, fleet({}), { default: 10 })).toEqual([
        'DeviceFleet "site-a" has no maxRemovals: set how many devices one up may remove (the team\'s default is 10)',
      ]);
      expect(await violations(fleetMaxRemovals, fleet({}, { maxRemovals: 500 }), { maximum: 50 })).toEqual([
        'DeviceFleet "site-a": maxRemovals 500 is above the team\'s maximum of 50',
      ]);
      expect(await violations(fleetMaxRemovals, fleet({}, { maxRemovals: 0 }), { maximum: 50 })).toEqual([]);
    });

    it("remediates a missing cap to the default, and leaves a set one", async () => {
      expect(await remediation(fleetMaxRemovals, fleet({}), { default: 10 })).toEqual({
        fleetName: "site-a",
        [fleetKey]: {},
        maxRemovals: 10,
      });
      expect(
        await remediation(fleetMaxRemovals, fleet({}, { maxRemovals: 500 }), { default: 10 }),
      ).toBeUndefined();
      expect(await remediation(fleetMaxRemovals, fleet({}), {})).toBeUndefined();
    });
  });

  describe("property ranges", () => {
    const ranges = { ranges: { reportInterval: { min: 300, max: 3600 }, "thresholds.high": { max: 80 } } };
    const config = (properties: object) =>
      resource(token, "DeviceConfig", "cfg", { deviceIds: ["9007199254740993"], properties });

    it("tells values outside the team's range, STRUCT children included", async () => {
      expect(
        await violations(propertyRanges, config({ reportInterval: 60, thresholds: { high: 90 } }), ranges),
      ).toEqual([
        'DeviceConfig "cfg": reportInterval is 60; the team\'s range is between 300 and 3600',
        'DeviceConfig "cfg": thresholds.high is 90; the team\'s range is at most 80',
      ]);
      expect(
        await violations(propertyRanges, config({ reportInterval: 300, thresholds: { high: 80 } }), ranges),
      ).toEqual([]);
    });

    it("reads a profile too, and refuses a range whose min is above its max", async () => {
      const profile = resource(token, "DeviceConfig", "cfg", {
        deviceIds: ["1"],
        profile: { reportInterval: "7200" },
      });
      expect(await violations(propertyRanges, profile, ranges)).toEqual([
        'DeviceConfig "cfg": reportInterval is 7200; the team\'s range is between 300 and 3600',
      ]);
      await expect(
        violations(propertyRanges, profile, { ranges: { reportInterval: { min: 10, max: 1 } } }),
      ).rejects.toThrow(/ranges.reportInterval: min must not be above max/);
    });
  });

  it("leaves other resources alone", async () => {
    const other = { type: "aws:s3/bucket:Bucket", name: "b", props: { sn: "x", profileUrl: "http://x" } };
    for (const policy of [rpsProfileUrl, projectAndTags, fleetMaxRemovals, propertyRanges]) {
      expect(await violations(policy, other, ALLOWED)).toEqual([]);
    }
  });
});
