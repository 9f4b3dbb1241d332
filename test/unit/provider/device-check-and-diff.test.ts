import { describe, expect, it } from "vitest";
import { dynamicOperations } from "../../../provider/dynamic/implementations";
import { UNKNOWN } from "../../../provider/shared/input-checks";

// The dynamic front-end's answers (its diff: changes, replaces, deleteBeforeReplace).
const deviceImplementation = dynamicOperations.Device;

const good = { sn: "240000A10001", name: "lobby", tags: ["a", "b"] };

async function failuresOf(inputs: Record<string, unknown>) {
  return (await deviceImplementation.check({}, inputs)).failures ?? [];
}

describe("Device check", () => {
  it("accepts valid inputs and keeps only the ones given", async () => {
    const result = await deviceImplementation.check({}, { ...good, description: undefined });
    expect(result.failures).toEqual([]);
    expect(result.inputs).toEqual(good);
  });

  it.each([
    [{ ...good, sn: "12-34" }, "sn", /must be 12 to 16 hex digits, got "12-34"/],
    [{ ...good, sn: "24000" }, "sn", /must be 12 to 16 hex digits/],
    [{ ...good, sn: "240000A10001FFFFF" }, "sn", /must be 12 to 16 hex digits/],
    [{ ...good, sn: "24000GA10001" }, "sn", /must be 12 to 16 hex digits/],
    [{ name: "x" }, "sn", /is required/],
    [{ ...good, name: "" }, "name", /must not be empty/],
    [{ ...good, name: 7 }, "name", /must be a string, got the number 7 \(in YAML, quote it: name: "…"/],
    [
      { ...good, name: "a\u0000b" },
      "name",
      /contains U\+0000 NUL at character 2; control characters are not allowed/,
    ],
    [
      { ...good, project: "\u001b[31mred" },
      "project",
      /contains U\+001B ESC \(a terminal escape sequence\) at character 1/,
    ],
    [
      { ...good, name: "\u202Eexe.txt" },
      "name",
      /contains U\+202E RIGHT-TO-LEFT OVERRIDE at character 1; bidirectional overrides/,
    ],
    [{ ...good, name: "two\nlines" }, "name", /contains U\+000A a line break at character 4/],
    [{ ...good, tags: ["ok", "b\u0007"] }, "tags[1]", /contains control character U\+0007 at character 2/],
    [
      { ...good, tags: ["a", 1] },
      "tags[1]",
      /^Device\.tags\[1\] must be a string, got the number 1 \(in YAML, quote it: - "…"; .*: an unquoted 01 arrives as 1\)$/,
    ],
    [{ ...good, tags: [null] }, "tags[0]", /must be a string, got null \(in YAML, .* or ~, is null\)$/],
    [{ ...good, tags: [true] }, "tags[0]", /must be a string, got true$/],
    [
      { ...good, tags: Array.from({ length: 20 }, (_, i) => `t${i}`) },
      "tags",
      /at most 19 tags, got 20: the platform allows 20, and one of them is the owner marker/,
    ],
    [{ ...good, tags: ["a", "a"] }, "tags[1]", /repeats the tag "a"/],
    [{ ...good, tags: [""] }, "tags[0]", /^Device\.tags\[0\] must not be empty$/],
    [{ ...good, tags: "a,b" }, "tags", /must be a list of strings/],
    [{ ...good, takeOverRps: "yes" }, "takeOverRps", /must be true or false/],
    [{ ...good, adoptExisting: 1 }, "adoptExisting", /must be true or false/],
    [{ ...good, project: " " }, "project", /must not be empty/],
    [{ ...good, nmae: "typo" }, "nmae", /is not a property of Device/],
    [{ ...good, name: " lobby" }, "name", /must not start or end with spaces .*got " lobby"/],
    [{ ...good, description: "trailing " }, "description", /must not start or end with spaces/],
    [{ ...good, project: "p\t" }, "project", /must not start or end with spaces/],
    [{ ...good, tags: ["a", " b"] }, "tags[1]", /must not start or end with spaces .*got " b"/],
  ])("rejects %j at %s", async (inputs, property, reason) => {
    const failures = await failuresOf(inputs);
    expect(failures).toHaveLength(1);
    // A nested path goes to the engine on no property (engine-failures.ts); its reason names it.
    expect(failures[0]?.property).toBe(/[.[]/.test(property) ? "" : property);
    expect(failures[0]?.reason).toMatch(new RegExp(`^Device\\.${property.replace(/[[\]]/g, "\\$&")} `));
    expect(failures[0]?.reason).toMatch(reason);
  });

  it("reports every bad property at once", async () => {
    const failures = await failuresOf({ sn: "x", name: "", tags: ["a", "a"] });
    expect(failures.map((f) => f.property)).toEqual(["sn", "name", ""]);
    expect(failures[2]?.reason).toMatch(/^Device\.tags\[1\] repeats the tag "a"/);
  });

  it("skips values that are unknown at preview", async () => {
    expect(await failuresOf({ sn: UNKNOWN, name: UNKNOWN, tags: [UNKNOWN, "a"] })).toEqual([]);
  });

  it("allows exactly 19 tags: the platform's 20th is the owner marker", async () => {
    // A serial number of its own: this process's one-owner record already holds \`good\` with other
    // inputs, which a dynamic check without a URN reads as a second Device (resource-owner.ts).
    expect(
      await failuresOf({ ...good, sn: "240000A10019", tags: Array.from({ length: 19 }, (_, i) => `t${i}`) }),
    ).toEqual([]);
  });
});

describe("Device diff", () => {
  const olds = { ...good, deviceId: "9007199254740993", connectStatus: "ONLINE", electricity: 80 };

  it("has no changes when only status fields differ", async () => {
    const diff = await deviceImplementation.diff(
      "1",
      { ...olds, connectStatus: "OFFLINE", electricity: 10, autopStatus: "WAITING" },
      good,
    );
    expect(diff).toEqual({ changes: false, replaces: [], deleteBeforeReplace: false });
  });

  it("updates in place for name, description, tags and tslVersion", async () => {
    const diff = await deviceImplementation.diff("1", olds, {
      ...good,
      name: "n",
      tags: ["b"],
      tslVersion: "2",
    });
    expect(diff).toEqual({ changes: true, replaces: [], deleteBeforeReplace: false });
  });

  it("updates in place, not replaces, when the project changes, is set or is removed (a project is a tag)", async () => {
    const update = { changes: true, replaces: [], deleteBeforeReplace: false };
    const tagged = { ...olds, project: "a" };
    expect(await deviceImplementation.diff("1", tagged, { ...good, project: "b" })).toEqual(update);
    expect(await deviceImplementation.diff("1", olds, { ...good, project: "b" })).toEqual(update);
    expect(await deviceImplementation.diff("1", tagged, good)).toEqual(update);
  });

  it("replaces, deleting first, only when the serial number changes (project changing too)", async () => {
    const diff = await deviceImplementation.diff("1", olds, { ...good, sn: "240000A10002", project: "p" });
    expect(diff).toEqual({ changes: true, replaces: ["sn"], deleteBeforeReplace: true });
  });

  it("has no changes when the serial number differs only in case", async () => {
    const diff = await deviceImplementation.diff("1", olds, { ...good, sn: good.sn.toLowerCase() });
    expect(diff).toEqual({ changes: false, replaces: [], deleteBeforeReplace: false });
  });

  it("treats no project like an empty one", async () => {
    const diff = await deviceImplementation.diff("1", { ...olds, project: "" }, good);
    expect(diff.changes).toBe(false);
  });

  it("treats a missing description or tag list like an empty one", async () => {
    const diff = await deviceImplementation.diff(
      "1",
      { ...olds, tags: [], description: "" },
      { sn: good.sn, name: good.name },
    );
    expect(diff.changes).toBe(false);
  });
});
