import { describe, expect, it } from "vitest";
import { faultConfigSchema } from "../../../emulator/faults/fault-config";
import { FaultInjector } from "../../../emulator/faults/fault-injector";
import { RateLimiter } from "../../../emulator/rate-limiter";
import { EmulatorError } from "../../../emulator/http/emulator-error";

describe("fault injector", () => {
  it("repeats its choices for a seed and honours filters and times", () => {
    const injector = new FaultInjector();
    const config = faultConfigSchema.parse({
      rate: 0.5,
      kinds: ["500", "reset"],
      seed: 3,
      methods: ["post"],
      times: 5,
    });
    injector.set(config);
    const first = Array.from({ length: 30 }, () => injector.decide("POST", "/x")?.kind);
    injector.set(config);
    expect(Array.from({ length: 30 }, () => injector.decide("POST", "/x")?.kind)).toEqual(first);
    expect(first.filter((k) => k !== undefined)).toHaveLength(5);
    expect(injector.decide("GET", "/x")).toBeUndefined();
  });
});

describe("rate limiter", () => {
  it("admits N requests per one-second window per application, then throws 429 with Retry-After", () => {
    const limiter = new RateLimiter(2);
    limiter.admit("a", 10_000);
    limiter.admit("a", 10_100);
    limiter.admit("b", 10_100);
    let error: unknown;
    try {
      limiter.admit("a", 10_200);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(EmulatorError);
    expect((error as EmulatorError).statusCode).toBe(429);
    expect((error as EmulatorError).headers["retry-after"]).toBe("1");
    expect(() => limiter.admit("a", 11_000)).not.toThrow();
  });
});
