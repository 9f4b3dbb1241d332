/**
 * The owner marker's tag handling: the stack read from a URN, the marker kept out of the declared
 * tags and out of every comparison, sent again on every write, and the settings and checks that
 * govern it. (The deployments that rely on it: test/e2e/owner-tag-across-stacks.test.ts.)
 */
import { afterEach, describe, expect, it } from "vitest";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  adoptionOwnerIn,
  carriesOnly,
  isMarker,
  markerOf,
  namesakeNote,
  otherOwnerIn,
  setOwnerTagPrefix,
  stackOfUrn,
  userTags,
  withMarker,
} from "../../../provider/shared/owner-marker";
import { backendAddress, instanceOf } from "../../../provider/deployment/stack-instance";
import { addBody, needsUpdate, platformDeclaration, updateBody } from "../../../provider/device/desired";
import { deviceDiff } from "../../../provider/device/diff";
import { InputChecker } from "../../../provider/shared/input-checks";
import { resolveSettings } from "../../../provider/platform-access/settings";
import { FleetLedger } from "../../../provider/device-fleet/state";
import { planChanges, planFleet } from "../../../provider/device-fleet/plan";
import type { Device } from "../../../sdk";

const A = "pulumi-stack:fleet/site-a";
const B = "pulumi-stack:fleet/site-b";
const device = (tag: string[]): Device =>
  ({ deviceId: "9007199254740993", sn: "240000A10001", name: "lobby", tag }) as Device;
const want = { sn: "240000A10001", name: "lobby", tags: ["x"] };

afterEach(() => setOwnerTagPrefix("pulumi-stack:"));

describe("the stack of a request", () => {
  it("is `<project>/<stack>` of the resource's URN", () => {
    expect(stackOfUrn("urn:pulumi:site-a::fleet::devplatform:index:Device::lobby")).toBe("fleet/site-a");
    expect(stackOfUrn("urn:pulumi:dev::p::pulumi:providers:devplatform::eu")).toBe("p/dev");
    expect(stackOfUrn("not-a-urn")).toBeUndefined();
    expect(markerOf("fleet/site-a")).toBe(A);
  });
});

describe("tags with the marker", () => {
  it("keeps markers out of the declared tags and puts this stack's last on a write", () => {
    expect(userTags(["x", A, "y"])).toEqual(["x", "y"]);
    expect(withMarker(["x", B], A)).toEqual(["x", A]);
    expect(withMarker(undefined, A)).toEqual([A]);
    expect(withMarker(["x"], undefined)).toEqual(["x"]);
  });

  it("names the other stack, and only another one", () => {
    expect(otherOwnerIn(["x", B], A)).toBe("fleet/site-b");
    expect(otherOwnerIn(["x", A], A)).toBeUndefined();
    expect(otherOwnerIn(["x"], A)).toBeUndefined();
    expect(carriesOnly(["x", A], A)).toBe(true);
    expect(carriesOnly(["x", A, B], A)).toBe(false);
    expect(carriesOnly(["x"], A)).toBe(false);
  });

  it("is sent by every add and PUT, which replace the whole tag list", () => {
    expect(addBody(want, A).tag).toEqual(["x", A]);
    expect(updateBody("1", want, A).tag).toEqual(["x", A]);
    expect(updateBody("1", { sn: want.sn, name: "n" }, A).tag).toEqual([A]);
    expect(addBody({ sn: want.sn, name: "n" }).tag).toBeUndefined();
  });

  it("is never drift: a refresh reads the declared tags without it", () => {
    expect(platformDeclaration(device(["x", A])).tags).toEqual(["x"]);
    expect(platformDeclaration(device([A])).tags).toBeUndefined();
  });

  it("makes an adoption write only when the marker is missing or another stack's", () => {
    expect(needsUpdate(device(["x", A]), want, A)).toBe(false);
    expect(needsUpdate(device(["x"]), want, A)).toBe(true);
    expect(needsUpdate(device(["x", B]), want, A)).toBe(true);
    expect(needsUpdate(device(["x"]), want)).toBe(false);
  });

  it("follows the configured prefix", () => {
    setOwnerTagPrefix("owner=");
    expect(userTags(["x", "owner=p/s", A])).toEqual(["x", A]);
    expect(otherOwnerIn(["owner=p/t"], "owner=p/s")).toBe("p/t");
  });
});

describe("checks and settings", () => {
  it("allows 19 declared tags and reserves the marker's prefix", () => {
    const tags = (list: string[]) => new InputChecker({ tags: list }, "Device").tags("tags").failures;
    expect(tags(Array.from({ length: 19 }, (_, i) => `t${i}`))).toEqual([]);
    expect(tags(Array.from({ length: 20 }, (_, i) => `t${i}`))[0]?.reason).toMatch(
      /may hold at most 19 tags, got 20: the platform allows 20, and one of them is the owner marker \("pulumi-stack:<project>\/<stack>", see devplatform:ownerTag\)/,
    );
    expect(tags(["a", "pulumi-stack:other/stack"])[0]).toMatchObject({
      property: "tags[1]",
      reason: expect.stringMatching(
        /"pulumi-stack:other\/stack" is reserved: tags starting with "pulumi-stack:"/,
      ),
    });
  });

  it("takes devplatform:ownerTag, or DEVPLATFORM_OWNER_TAG, and refuses a prefix with spaces", () => {
    const config: Record<string, string> = {
      "devplatform:baseUrl": "https://platform.example.com",
      "devplatform:clientId": "id",
      "devplatform:clientSecret": "s",
    };
    expect(resolveSettings((k) => config[k], {}).ownerTag).toBe("pulumi-stack:");
    expect(resolveSettings((k) => config[k], { DEVPLATFORM_OWNER_TAG: "iac:" }).ownerTag).toBe("iac:");
    expect(() =>
      resolveSettings((k) => ({ ...config, "devplatform:ownerTag": "managed by" })[k], {}),
    ).toThrow(/devplatform:ownerTag must be 1 to 32 printable ASCII characters without spaces/);
  });
});

describe("devices managed before the marker", () => {
  it("a Device recorded without it is updated to gain it, and then changes nothing", () => {
    const olds = { ...want, deviceId: "9007199254740993" };
    const gains = deviceDiff("9007199254740993", olds, want, A);
    expect(gains.changes).toBe(true);
    expect(gains.replaces).toEqual([]);
    expect(gains.detailedDiff).toEqual({ ownerMarker: { kind: "ADD", inputDiff: false } });
    expect(deviceDiff("9007199254740993", { ...olds, ownerMarker: A }, want, A).changes).toBe(false);
    // Outside a deployment (no URN, no marker) nothing changes.
    expect(deviceDiff("9007199254740993", olds, want).changes).toBe(false);
  });

  it("a fleet recorded without it plans one mark per unchanged device, then none", () => {
    const outputs = {
      deviceIds: { "240000A10001": "1", "240000A10002": "2" },
      applied: JSON.stringify({ "240000A10001": { name: "a" }, "240000A10002": { name: "b" } }),
    };
    const declared = { "240000A10001": { name: "a" }, "240000A10002": { name: "b2" } };
    const ledger = FleetLedger.fromOutputs(outputs);
    const plan = planFleet(ledger, declared, A);
    expect(plan.marks).toEqual(["240000A10001"]);
    expect(plan.updates.map((u) => u.sn)).toEqual(["240000A10002"]);
    expect(plan.ownerReads).toEqual(["240000A10001", "240000A10002"]);
    expect(planChanges(planFleet(ledger, { "240000A10001": { name: "a" } }, undefined))).toBe(true); // the removal

    ledger.useMarker(A);
    ledger.setMarked("240000A10001");
    const half = FleetLedger.fromOutputs(ledger.toOutputs("f", {}));
    expect(ledger.toOutputs("f", {})).toMatchObject({ ownerMarker: A, unmarked: ["240000A10002"] });
    expect(planFleet(half, declared, A).ownerReads).toEqual(["240000A10002"]);
    ledger.setMarked("240000A10002");
    const done = FleetLedger.fromOutputs(ledger.toOutputs("f", {}));
    expect(ledger.toOutputs("f", {}).unmarked).toBeUndefined();
    const same = { "240000A10001": { name: "a" }, "240000A10002": { name: "b" } };
    expect(planChanges(planFleet(done, same, A))).toBe(false);
    // A renamed stack's marker is another: every device is read and given it again.
    expect(planFleet(done, same, B).marks).toHaveLength(2);
  });
});

describe("a stack is who it says it is", () => {
  const mine = "pulumi-stack:fleet/dev@k3m7q2za";
  const namesake = "pulumi-stack:fleet/dev@b4ckend2";
  const renamedFrom = "pulumi-stack:fleet/old@k3m7q2za";

  it("a marker carries the backend's instance, 8 characters of base32, the same for the same backend", () => {
    expect(markerOf("fleet/dev", "pulumi-stack:", "k3m7q2za")).toBe(mine);
    expect(instanceOf("file:///srv/state")).toMatch(/^[a-z2-7]{8}$/);
    expect(instanceOf("file:///srv/state")).toBe(instanceOf("file:///srv/state"));
    expect(instanceOf("file:///srv/state")).not.toBe(instanceOf("file:///srv/other"));
  });

  it("the backend is PULUMI_BACKEND_URL, else the project's backend.url, else the login's current", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "instance-"));
    const home = path.join(dir, "home");
    mkdirSync(home);
    writeFileSync(path.join(home, "credentials.json"), JSON.stringify({ current: "s3://logged-in/" }));
    expect(backendAddress({ PULUMI_HOME: home }, dir)).toBe("s3://logged-in");
    writeFileSync(
      path.join(dir, "Pulumi.yaml"),
      "name: p\nruntime: nodejs\nbackend:\n  url: file://./state\n",
    );
    expect(backendAddress({ PULUMI_HOME: home }, dir)).toBe("file://./state");
    expect(backendAddress({ PULUMI_HOME: home, PULUMI_BACKEND_URL: "s3://env" }, dir)).toBe("s3://env");
    expect(backendAddress({ PULUMI_HOME: path.join(dir, "none") }, path.join(dir, "none"))).toBeUndefined();
  });

  it("the marker a state recorded is this stack's own: a rename or a prefix change is no other owner", () => {
    expect(otherOwnerIn([renamedFrom], mine)).toBe("fleet/old");
    expect(otherOwnerIn([renamedFrom], mine, renamedFrom)).toBeUndefined();
    expect(otherOwnerIn(["team-a:fleet/dev@k3m7q2za"], mine, ["team-a:fleet/dev@k3m7q2za"])).toBeUndefined();
  });

  it("a namesake on another backend is another owner, named with its instance", () => {
    expect(otherOwnerIn([namesake], mine)).toBe("fleet/dev@b4ckend2");
    expect(namesakeNote("fleet/dev@b4ckend2", mine)).toMatch(/same name on another backend/);
    expect(namesakeNote("fleet/other", mine)).toBe("");
    // The earlier form, written by a stack of this name that this state did not record: refused too.
    expect(otherOwnerIn(["pulumi-stack:fleet/dev"], mine)).toBe("fleet/dev");
  });

  it("a marker of another prefix is seen as one, kept out of the tags, and named whole", () => {
    expect(isMarker("team-a:fleet/a@k3m7q2za")).toBe(true);
    expect(isMarker("team-a:fleet/a")).toBe(false);
    expect(isMarker("ops/lead@example")).toBe(false);
    expect(userTags(["x", "team-a:fleet/a@k3m7q2za"])).toEqual(["x"]);
    expect(otherOwnerIn(["team-a:fleet/a@k3m7q2za"], mine)).toBe("team-a:fleet/a@k3m7q2za");
  });

  it("a fleet keeps the markers it wrote before while some devices are not retagged yet", () => {
    const ledger = FleetLedger.fromOutputs({
      deviceIds: { "240000A10001": "1", "240000A10002": "2" },
      applied: JSON.stringify({ "240000A10001": { name: "a" }, "240000A10002": { name: "b" } }),
      ownerMarker: renamedFrom,
    });
    ledger.useMarker(mine);
    ledger.setMarked("240000A10001");
    const outputs = ledger.toOutputs("f", {});
    expect(outputs).toMatchObject({
      ownerMarker: mine,
      unmarked: ["240000A10002"],
      formerMarkers: [renamedFrom],
    });
    expect(FleetLedger.fromOutputs(outputs).ownMarkers()).toEqual([mine, renamedFrom]);
    ledger.setMarked("240000A10002");
    expect(ledger.toOutputs("f", {}).formerMarkers).toBeUndefined();
  });
});

describe("a stack whose backend cannot be found", () => {
  it("refuses to adopt a device carrying its own name: it cannot tell itself from a namesake", () => {
    const unverifiable = "pulumi-stack:fleet/dev";
    expect(adoptionOwnerIn([unverifiable], unverifiable)).toBe("fleet/dev");
    expect(adoptionOwnerIn(["x"], unverifiable)).toBeUndefined();
    expect(
      adoptionOwnerIn(["pulumi-stack:fleet/dev@k3m7q2za"], "pulumi-stack:fleet/dev@k3m7q2za"),
    ).toBeUndefined();
  });
});

describe("a declared tag shaped like another prefix's owner marker", () => {
  it("is refused by check, saying why", () => {
    const failures = new InputChecker({ tags: ["team-a:fleet/a@k3m7q2za"] }, "Device").tags("tags").failures;
    expect(failures[0]?.reason).toMatch(
      /"team-a:fleet\/a@k3m7q2za" is reserved: it has the shape of an owner marker/,
    );
  });
});
