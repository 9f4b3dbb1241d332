import { describe, expect, it } from "vitest";
import { pinSecret, redactText, registerSecret } from "../../../sdk/redact";

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

  it("does not register values too short to replace safely; patterns still catch them in fields", () => {
    pinSecret("abc");
    expect(redactText("abc client_secret=abc")).toBe("abc client_secret=[REDACTED]");
  });
});
