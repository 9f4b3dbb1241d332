import { describe, expect, it } from "vitest";
import { pinSecret, redactText, redactThenCut, registerSecret } from "../../../sdk/redact";

describe("the redaction registry", () => {
  it("keeps a pinned client secret through 300 token rotations, and forgets old tokens", () => {
    const clientSecret = "pinned-client-secret-0001";
    pinSecret(clientSecret);
    const tokens = Array.from({ length: 600 }, (_, i) => `rotated-token-${String(i).padStart(4, "0")}`);
    // 300 rotations, each an access token and a refresh token: more than the registry holds.
    for (const token of tokens) registerSecret(token);

    expect(redactText(`echoed ${clientSecret} back`)).toBe("echoed [REDACTED] back");
    expect(redactText(`latest ${tokens[599]}`)).toBe("latest [REDACTED]");
    expect(redactText(`oldest ${tokens[0]}`)).toBe(`oldest ${tokens[0]}`);
  });

  it("pinning a secret that was registered as a token keeps it for good", () => {
    const secret = "first-seen-as-a-token";
    registerSecret(secret);
    pinSecret(secret);
    for (let i = 0; i < 300; i += 1) registerSecret(`filler-token-${i}-xyz`);
    expect(redactText(secret)).toBe("[REDACTED]");
  });

  it("replaces a secret of any length, short ones included", () => {
    pinSecret("q7#");
    expect(redactText("echoed q7# and client_secret=q7%23")).toBe(
      "echoed [REDACTED] and client_secret=[REDACTED]",
    );
  });
});

describe("a secret holding &, a space or a quote", () => {
  const secret = "Xy7&k9Qm2Lp8Vb3Nc6Rt";
  /** How many characters of the secret's tail (after its first 4) a text shows. */
  const shown = (text: string) => (text.includes(secret.slice(4)) ? secret.length - 4 : 0);

  it("is replaced whole as the decoded form body a server echoes, before the client_secret= pattern", () => {
    pinSecret(secret);
    const echoed = `bad request: grant_type=client_credentials&client_id=c1&client_secret=${secret}&scope=x`;
    const out = redactText(echoed);
    expect(out).toBe(
      "bad request: grant_type=client_credentials&client_id=c1&client_secret=[REDACTED]&scope=x",
    );
    expect(shown(out)).toBe(0);
  });

  it("is replaced in its URL-, form- and JSON-encoded forms, with either case of hex digit", () => {
    const spaced = `a b"c&d+e%f`;
    pinSecret(spaced);
    const url = encodeURIComponent(spaced);
    const form = new URLSearchParams({ s: spaced }).toString().slice(2);
    const json = JSON.stringify(spaced);
    for (const text of [url, url.toLowerCase(), form, json, `{"note":${json}}`]) {
      const out = redactText(`echo ${text} end`);
      expect(out, text).not.toContain("c&d");
      expect(out, text).not.toContain("d+e");
      expect(out, text).not.toContain("d%2Be");
      expect(out, text).not.toContain("d%2be");
      expect(out, text).toContain("[REDACTED]");
    }
    expect(redactText(`client_secret=${form}&x=1`)).toBe("client_secret=[REDACTED]&x=1");
  });
});

describe("the forms the issue's review found a secret shown in", () => {
  it("strict %XX, \\u escapes, \\/ and a cut across the secret show none of it", () => {
    const strictSecret = "a*b~c!d(e)f'g.h-i_";
    const unicodeSecret = "äöüÄÖÜabcdefghijkl";
    const slashSecret = "ab/cd/ef/gh/ij/kl";
    const cutSecret = "Xy7&k9Qm2Lp8Vb3Nc6Rt";
    for (const secret of [strictSecret, unicodeSecret, slashSecret, cutSecret]) pinSecret(secret);
    const strict = [...new TextEncoder().encode(strictSecret)]
      .map((b) => `%${b.toString(16).toUpperCase().padStart(2, "0")}`)
      .join("");
    expect(redactText(`echoed ${strict}&x=1`)).toBe("echoed [REDACTED]&x=1");
    expect(redactText(`echoed ${strict.toLowerCase()}`)).toBe("echoed [REDACTED]");
    expect(redactText("echoed \\u00e4\\u00F6\\u00fc\\u00c4\\u00d6\\u00dcabcdefghijkl.")).toBe(
      "echoed [REDACTED].",
    );
    expect(redactText("echoed ab\\/cd\\/ef\\/gh\\/ij\\/kl.")).toBe("echoed [REDACTED].");
    expect(redactText("echoed Xy7&amp;k9Qm2Lp8Vb3Nc6Rt.")).toBe("echoed [REDACTED].");
    const long = `${"x".repeat(96)}client_secret=${cutSecret}&grant_type=client_credentials`;
    expect(redactThenCut(long, 120)).toBe(`${"x".repeat(96)}client_secret=[REDACTED]…`);
    expect(redactThenCut(long, 115)).toBe(`${"x".repeat(96)}client_secret=…`);
    // A server that cut its own echo: the secret's start at the end of a text is redacted too.
    expect(redactText(`echoed ${cutSecret.slice(0, 8)}`)).toBe("echoed [REDACTED]");
  });
});
