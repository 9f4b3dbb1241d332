import { describe, expect, it } from "vitest";
import { dynamicOperations } from "../../../provider/dynamic/implementations";

// The dynamic front-end's answers (its diff: changes, replaces, deleteBeforeReplace).
const rpsProfileImplementation = dynamicOperations.RpsProfile;

const good = { sn: "AC0000C30001", profileUrl: "https://rps.example.com/p/1" };

describe("RpsProfile check", () => {
  it("accepts an https profile URL", async () => {
    expect((await rpsProfileImplementation.check({}, good)).failures).toEqual([]);
  });

  it.each([
    [{ ...good, profileUrl: "http://rps.example.com/p" }, "profileUrl", /must be an https URL/],
    [{ ...good, profileUrl: "/p/1" }, "profileUrl", /must be an absolute URL/],
    [
      { ...good, profileUrl: "https://user:pw@rps.example.com/p" },
      "profileUrl",
      /must not carry credentials/,
    ],
    [{ sn: good.sn }, "profileUrl", /is required/],
    [
      { ...good, profileUrl: "https://rps.example.com/p?token=s3cr3t-value" },
      "profileUrl",
      /^RpsProfile\.profileUrl must not carry a credential in its query string \(parameter "token"\): the URL is kept in the stack's state and shown in previews in plain text, and handed to every device\. Give the RPS server a URL whose access is granted another way \(a path the server authorises by the device's certificate, say\)$/,
    ],
    [
      { ...good, profileUrl: "https://rps.example.com/p?X-Amz-Signature=abc&site=7" },
      "profileUrl",
      /parameter "X-Amz-Signature"/,
    ],
    [
      { ...good, profileUrl: "http://rps.example.com/p?api_key=k" },
      "profileUrl",
      /^RpsProfile\.profileUrl must be an https URL, got "http:\/\/rps\.example\.com\/p\?\*\*\*"$/,
    ],
    [{ ...good, sn: "ABC" }, "sn", /must be 12 to 16 hex digits/],
    [{ ...good, url: "x" }, "url", /is not a property of RpsProfile/],
  ])("rejects %j at %s", async (inputs, property, reason) => {
    const failures = (await rpsProfileImplementation.check({}, inputs)).failures ?? [];
    expect(failures.map((f) => f.property)).toEqual([property]);
    expect(failures[0]?.reason).toMatch(reason);
  });
});

describe("RpsProfile diff", () => {
  it("updates a profile URL in place", async () => {
    const diff = await rpsProfileImplementation.diff(good.sn, good, {
      ...good,
      profileUrl: "https://x.example/p",
    });
    expect(diff).toEqual({ changes: true, replaces: [], deleteBeforeReplace: false });
  });

  it("replaces on a serial-number change", async () => {
    const diff = await rpsProfileImplementation.diff(good.sn, good, { ...good, sn: "AC0000C30002" });
    expect(diff.replaces).toEqual(["sn"]);
  });

  it("has no changes for the same inputs", async () => {
    expect((await rpsProfileImplementation.diff(good.sn, good, { ...good })).changes).toBe(false);
  });
});
