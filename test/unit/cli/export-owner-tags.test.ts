/**
 * Owner tags in `devplatform export`: never in the inventory's tags (a program cannot declare one),
 * reported by stack, and taken over by `--take-over` through the fleets' `takeOverFrom` (or each
 * Device's `takeOver`). (On the real CLI, after `pulumi stack rm --force`:
 * test/e2e/owner-tag-across-stacks.test.ts.)
 */
import { describe, expect, it } from "vitest";
import { indexTs } from "../../../cli/export/index-template";
import { ownedDevices, ownerLines } from "../../../cli/export/owners";
import type { ExportedDevice } from "../../../cli/export/read-fleet";
import { mayTakeOver, settingsOf, checkFleetInputs } from "../../../provider/device-fleet/inputs";

const device = (sn: string, owner?: string): ExportedDevice => ({
  entry: { sn, name: sn },
  deviceId: "1",
  model: undefined,
  ...(owner === undefined ? {} : { owner }),
});

describe("export and owner tags", () => {
  it("counts the devices of each stack whose owner tag they carry", () => {
    const owned = ownedDevices([
      device("240000A10001", "fleet/dev@k3m7q2za"),
      device("240000A10002"),
      device("240000A10003", "fleet/dev@k3m7q2za"),
      device("240000A10004", "team-b:site/prod@b4ckend2"),
    ]);
    expect([...owned.counts]).toEqual([
      ["fleet/dev@k3m7q2za", 2],
      ["team-b:site/prod@b4ckend2", 1],
    ]);
    expect(owned.serials).toEqual(["240000A10001", "240000A10003", "240000A10004"]);
    const [carry, next] = ownerLines(owned.counts, false);
    expect(carry).toMatch(/3 devices carry the owner tag of another stack: fleet\/dev@k3m7q2za \(2\), /);
    expect(next).toMatch(
      /export again with --take-over, or give each fleet takeOverFrom: \["fleet\/dev@k3m7q2za",/,
    );
    expect(ownerLines(owned.counts, true)[1]).toMatch(/index.ts takes them over/);
    expect(ownerLines(new Map(), false)).toEqual([]);
  });

  it("--take-over writes takeOverFrom for the fleets, takeOver for single Devices", () => {
    const takeOver = { stacks: ["fleet/dev@k3m7q2za"], serials: ["240000A10001"] };
    const fleet = indexTs({ style: "fleet", rps: false, config: false, takeOver });
    expect(fleet).toContain('const takeOverFrom = ["fleet/dev@k3m7q2za"];');
    expect(fleet).toContain("{ devices: group.entries, takeOverFrom }");
    const devices = indexTs({ style: "devices", rps: false, config: false, takeOver });
    expect(devices).toContain('const takeOver = new Set<string>(["240000A10001"]);');
    expect(devices).toContain("takeOver: takeOver.has(sn)");
    expect(indexTs({ style: "fleet", rps: false, config: false })).not.toContain("takeOverFrom");
  });
});

describe("a fleet's takeOverFrom", () => {
  const settings = settingsOf({ takeOverFrom: ["fleet/dev"], takeOver: ["240000A10009"] });

  it("takes over every device of the named stack, of any instance, and no other", () => {
    expect(mayTakeOver(settings, "240000A10001", ["x", "pulumi-stack:fleet/dev@k3m7q2za"])).toBe(true);
    expect(mayTakeOver(settings, "240000A10001", ["pulumi-stack:fleet/dev"])).toBe(true);
    expect(mayTakeOver(settings, "240000A10001", ["pulumi-stack:fleet/prod@k3m7q2za"])).toBe(false);
    expect(mayTakeOver(settings, "240000A10001", ["x"])).toBe(false);
    expect(mayTakeOver(settings, "240000a10009", ["pulumi-stack:other/x@k3m7q2za"])).toBe(true);
    const one = settingsOf({ takeOverFrom: ["fleet/dev@k3m7q2za"] });
    expect(mayTakeOver(one, "240000A10001", ["pulumi-stack:fleet/dev@k3m7q2za"])).toBe(true);
    expect(mayTakeOver(one, "240000A10001", ["pulumi-stack:fleet/dev@b4ckend2"])).toBe(false);
  });

  it("is checked: a list of <project>/<stack>", () => {
    const { failures } = checkFleetInputs(
      {},
      { devices: "[]", fleetName: "f", takeOverFrom: ["fleet/dev", "dev", 3] },
    );
    expect(failures.map((f) => f.property)).toEqual(["takeOverFrom[1]", "takeOverFrom[2]"]);
    expect(failures[0]?.reason).toMatch(
      /DeviceFleet.takeOverFrom\[1\] must name a stack as "<project>\/<stack>"/,
    );
  });
});
