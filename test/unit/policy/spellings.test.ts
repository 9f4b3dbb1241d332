/**
 * The pack compares what the platform and the RPS client will see, not how the program spells it,
 * and its remediations run behind `@pulumi/policy` 1.21's remediation-path proxies (the harness
 * wraps props as the server does). Generated spellings (fast-check) look for the next way around.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fleetMaxRemovals } from "../../../policy/policies/fleet-max-removals";
import { projectAndTags } from "../../../policy/policies/project-and-tags";
import { propertyRanges } from "../../../policy/policies/property-ranges";
import { rpsProfileUrl } from "../../../policy/policies/rps-profile-url";
import { UNKNOWN } from "../../../provider/shared/input-checks";
import { FRONT_ENDS, remediation, resource, violations } from "./policy-harness";

const ALLOWED = { allowedPrefixes: ["https://rps.example.com/profiles/"] };
const SN = "240000A10001";

describe.each(FRONT_ENDS)("the $frontEnd front-end", ({ token }) => {
  const fleetKey = token("DeviceFleet").startsWith("devplatform:") ? "devices" : "entries";

  it("remediates a tagged Device and fleet behind the remediation path's proxies", async () => {
    const config = { defaultProject: "plant-1", requiredTags: ["managed"] };
    const device = resource(token, "Device", "gw", { sn: SN, name: "gw", tags: ["managed", "x"] });
    expect(await remediation(projectAndTags, device, config)).toEqual({
      sn: SN,
      name: "gw",
      tags: ["managed", "x"],
      project: "plant-1",
    });
    const fleet = resource(token, "DeviceFleet", "f", { [fleetKey]: { [SN]: { name: "a", tags: ["x"] } } });
    expect(await remediation(projectAndTags, fleet, config)).toEqual({
      [fleetKey]: { [SN]: { name: "a", project: "plant-1", tags: ["x", "managed"] } },
    });
  });

  it("sets the default cap on a fleet whose devices are unknown until the up, keeping them unknown", async () => {
    const fleet = resource(token, "DeviceFleet", "f", { fleetName: "f", [fleetKey]: UNKNOWN });
    expect(await remediation(fleetMaxRemovals, fleet, { default: 25 })).toEqual({
      fleetName: "f",
      [fleetKey]: UNKNOWN,
      maxRemovals: 25,
    });
    // A computed project or tag list is left as it came; what is known is remediated.
    const partly = resource(token, "DeviceFleet", "f", {
      [fleetKey]: { [SN]: { name: UNKNOWN }, "240000A10002": { project: UNKNOWN, tags: UNKNOWN } },
    });
    expect(await remediation(projectAndTags, partly, { defaultProject: "p", requiredTags: ["m"] })).toEqual({
      [fleetKey]: {
        [SN]: { name: UNKNOWN, project: "p", tags: ["m"] },
        "240000A10002": { project: UNKNOWN, tags: UNKNOWN },
      },
    });
  });

  it("finds a STRUCT child however it is keyed", async () => {
    const config = { ranges: { "alarmThreshold.high": { max: 40 } } };
    for (const threshold of [{ high: 100 }, { "alarmThreshold.high": 100 }]) {
      const dc = resource(token, "DeviceConfig", "dc", { properties: { alarmThreshold: threshold } });
      expect(await violations(propertyRanges, dc, config)).toEqual([
        `DeviceConfig "dc": alarmThreshold.high is 100; the team's range is at most 40`,
      ]);
    }
  });

  it("refuses a project with an invisible, control or look-alike character, whatever it is", async () => {
    const device = (project: string) => resource(token, "Device", "gw", { sn: SN, name: "gw", project });
    expect(await violations(projectAndTags, device("\u200b"))).toEqual([
      'Device "gw": project "\u200b" contains an invisible or control character (U+200B)',
    ]);
    const allowed = { allowedProjects: ["plant-1"] };
    expect(await violations(projectAndTags, device("plant-1"), allowed)).toEqual([]);
    // Canonically equal (a composed and a decomposed é) is the same project.
    expect(
      await violations(projectAndTags, device("caf\u00e9"), { allowedProjects: ["cafe\u0301"] }),
    ).toEqual([]);
    const hidden = fc.constantFrom(
      "\u200b",
      "\u200c",
      "\u200d",
      "\u2060",
      "\ufeff",
      "\u00ad",
      "\u202e",
      "\u0000",
      "\u001b",
      "\u3164",
    );
    await fc.assert(
      fc.asyncProperty(hidden, fc.nat({ max: 7 }), async (char, at) => {
        const spelled = "plant-1".slice(0, at) + char + "plant-1".slice(at);
        expect(await violations(projectAndTags, device(spelled), allowed)).toHaveLength(1);
      }),
    );
    // Full-width letters read as plant-1 and are another project to the platform.
    expect(await violations(projectAndTags, device("ｐｌａｎｔ-1"), allowed)).toEqual([
      'Device "gw": project "ｐｌａｎｔ-1" uses look-alike characters (it reads as "plant-1")',
    ]);
  });

  it("recognises the package's provider under a type name of the user's", async () => {
    const mine = {
      type: "pulumi-nodejs:dynamic:Resource",
      name: "mine",
      props: {
        __provider: 'exports.handler = require("pulumi-devplatform/providers/rps-profile");',
        sn: SN,
        profileUrl: "https://rps.attacker.example/p",
      },
    };
    expect(await violations(rpsProfileUrl, mine, ALLOWED)).toHaveLength(1);
    const other = { ...mine, props: { ...mine.props, __provider: 'require("./my-own-provider")' } };
    expect(await violations(rpsProfileUrl, other, ALLOWED)).toEqual([]);
  });
});

describe("RPS profile URLs are compared resolved", () => {
  const profile = (profileUrl: string) =>
    resource(FRONT_ENDS[0].token, "RpsProfile", "rps-1", { sn: SN, profileUrl });
  const refused = async (url: string) => (await violations(rpsProfileUrl, profile(url), ALLOWED)).length > 0;

  it("refuses what resolves outside the prefix, and accepts harmless spellings of it", async () => {
    for (const url of [
      "https://rps.example.com/profiles/../admin/x",
      "https://rps.example.com/profiles/%2e%2e/admin/x",
      "https://rps.example.com/profiles/..\\admin",
      "https://rps.example.com/profiles/%252e%252e/admin",
      "https://user@rps.example.com/profiles/x",
    ])
      expect(await refused(url), url).toBe(true);
    for (const url of [
      "HTTPS://RPS.Example.COM/profiles/x",
      "https://rps.example.com./profiles/x",
      "https://rps.example.com:443/profiles/./x",
    ])
      expect(await refused(url), url).toBe(false);
  });

  /** An independent reading of a path: `\` is `/`, `%2e` is `.`, dot segments resolved. */
  function resolvedPath(path: string): string {
    const out: string[] = [];
    const segments = path.replace(/\\/g, "/").split("/").slice(1);
    segments.forEach((segment, at) => {
      const plain = segment.replace(/%2e/gi, ".");
      const dot = plain === "." || plain === "..";
      if (plain === "..") out.pop();
      // A dot segment last leaves the path ending with "/".
      if (dot && at === segments.length - 1) out.push("");
      else if (!dot) out.push(segment);
    });
    return `/${out.join("/")}`;
  }

  it("accepts no generated spelling that lands outside /profiles/", async () => {
    const segment = fc.constantFrom("..", ".", "%2e%2e", "%2E.", ".%2e", "%2e", "admin", "x", "profiles", "");
    const separator = fc.constantFrom("/", "\\");
    const host = fc.constantFrom(
      "rps.example.com",
      "RPS.EXAMPLE.COM",
      "rps.example.com.",
      "Rps.Example.Com.",
    );
    await fc.assert(
      fc.asyncProperty(host, fc.array(fc.tuple(separator, segment), { maxLength: 6 }), async (h, parts) => {
        const path = "/profiles" + parts.map(([sep, seg]) => sep + seg).join("");
        const url = `https://${h}${path}`;
        if (!(await refused(url))) expect(resolvedPath(path).startsWith("/profiles/"), url).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});
