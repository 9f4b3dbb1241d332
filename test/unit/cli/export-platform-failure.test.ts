/**
 * How `devplatform export` words a platform failure: a page it cannot read is the platform's answer
 * (never "check the base URL"), a wrong server is the URL's fault, and the URL shown never carries
 * the user-info or query it was given with.
 */
import { describe, expect, it } from "vitest";
import { platformFailure } from "../../../cli/export/platform-failure";
import { FleetReadError } from "../../../cli/export/read-fleet";
import { ConfigurationError, ResponseShapeError, TransportError } from "../../../sdk";

const where = { method: "POST", path: "/device/openapi/v1/devices/search", attempts: 1 };
const target = { baseUrl: "https://platform.example.com", clientId: "id" };

describe("export's platform failures", () => {
  it("a page whose data cannot be read does not blame the base URL", () => {
    const shape = new ResponseShapeError({ ...where, status: 200, reason: "unexpected response shape: x" });
    const failure = platformFailure(new FleetReadError("reading devices", shape), target);
    expect(failure?.message).toMatch(/^reading devices from https:\/\/platform\.example\.com failed: /);
    expect(failure?.message).toContain("the platform answered with data this version cannot read");
    expect(failure?.message).not.toMatch(
      /does not answer as the device platform does|Check DEVPLATFORM_BASE_URL/,
    );
  });

  it("an answer that is not the platform's blames the base URL", () => {
    const wrong = new ConfigurationError({ ...where, status: 404, reason: "not the platform's response" });
    expect(platformFailure(wrong, target)?.message).toMatch(
      /^https:\/\/platform\.example\.com does not answer as the device platform does/,
    );
  });

  it("never shows the user-info or query of the base URL", () => {
    const url = "https://user:pw-s3cret@platform.example.com/base?token=t-s3cret";
    const errors = [
      new TransportError({ ...where, reason: "ECONNREFUSED" }),
      new ConfigurationError({ ...where, status: 404 }),
      new ResponseShapeError({ ...where, status: 200 }),
    ];
    for (const error of errors) {
      const message = platformFailure(error, { ...target, baseUrl: url })?.message ?? "";
      expect(message).toContain("https://***@platform.example.com/base?***");
      expect(message).not.toContain("s3cret");
    }
  });
});
