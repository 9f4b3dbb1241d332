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

describe("seeded faults per route", () => {
  const config = faultConfigSchema.parse({ rate: 0.5, kinds: ["500", "503"], seed: 11 });

  function tasksOutcomes(otherRequestsBetween: number): (string | undefined)[] {
    const injector = new FaultInjector();
    injector.set(config);
    return Array.from({ length: 20 }, () => {
      for (let i = 0; i < otherRequestsBetween; i++)
        injector.decide("GET", "/d/1", "GET /devices/{deviceId}");
      return injector.decide("POST", "/tasks", "POST /tasks")?.kind;
    });
  }

  it("faults a route the same way whatever the traffic of other routes", () => {
    const alone = tasksOutcomes(0);
    expect(tasksOutcomes(3)).toEqual(alone);
    expect(tasksOutcomes(17)).toEqual(alone);
    expect(alone.filter((k) => k !== undefined).length).toBeGreaterThan(0);
    expect(alone.filter((k) => k === undefined).length).toBeGreaterThan(0);
  });
});

describe("faults after N requests", () => {
  it("lets `after` matching requests through, then faults", () => {
    const injector = new FaultInjector();
    injector.set(faultConfigSchema.parse({ kinds: ["500"], pathIncludes: "/tasks", after: 2, times: 1 }));
    const kinds = Array.from({ length: 4 }, () => injector.decide("POST", "/tasks")?.kind);
    expect(injector.decide("GET", "/devices/1")).toBeUndefined();
    expect(kinds).toEqual([undefined, undefined, "500", undefined]);
  });
});
