/**
 * Many pipelines, one platform, on the real CLI: 4 stacks of 30 devices each, one DeviceFleet per
 * stack, all on one application of an emulator started with a rate limit of 10 requests a second,
 * their `up`s started together (as a GitOps merge that touches every site does). Each stack's
 * provider finds its share of the rate by itself (pacer.ts: a refusal slows the whole client, the
 * pace climbs back while requests pass): every `up` succeeds, every device is on the platform once
 * and in its stack's state under the platform's id, and Add a Device was sent at most 1.15 times
 * per device (refusals included: the emulator counts every request it received). The issue's goal
 * is 1.05; CI on a 2-core machine measured 125–135 adds for 120 devices with this pacer. The stacks'
 * `up`s do not start together: their first requests came 300–800 ms apart, and a stack that starts
 * late finds the windows full until the others have slowed. bench/pace-simulation.ts gives 124
 * requests for 120 when the clients start together and up to 135 when they start 100–700 ms apart,
 * whatever the decrease, initial rate or hold tried (its unit test holds both). Nor did clients that
 * share a machine help by seeing each other: an even split of the rate among the clients sending at
 * once, each refusal slowing them all, still left up to 10 refusals of 120 over the same starts
 * (mean 6, against 7.8 apart), and was not adopted. No time is
 * asserted; the figures are printed (the bench's platform-limit table measures the times).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { deviceFleetProgram, serialNumbers, type FleetDeviceSpec } from "./support/fleet-programs";
import { createProject } from "./support/e2e-project";
import { FRONT_ENDS } from "./support/front-ends";
import { assertOk, resourcesOfType, type PulumiProject } from "./support/pulumi-project";

const STACKS = 4;
const DEVICES = 30;
const RATE_LIMIT = 10;
/** Add a Device requests per device at most, refused ones included. */
const MAX_ADDS_PER_DEVICE = 1.15;
/** A distinct serial-number prefix per stack and front-end (hex digits). */
const PREFIXES = { dynamic: ["2A1", "2A2", "2A3", "2A4"], plugin: ["2B1", "2B2", "2B3", "2B4"] } as const;

describe.each(FRONT_ENDS)(
  `${STACKS} stacks × ${DEVICES} devices at --rate-limit ${RATE_LIMIT} (%s)`,
  (front) => {
    let emulator: RunningEmulator;
    let projects: PulumiProject[];
    let fleets: FleetDeviceSpec[][];

    // An emulator of its own per front-end: the rate is the application's, and the counts must be this run's.
    beforeAll(async () => {
      emulator = await startEmulator({ control: true, rateLimit: RATE_LIMIT });
      fleets = PREFIXES[front].map((prefix, stack) =>
        serialNumbers(DEVICES, prefix).map((sn, i) => ({
          sn,
          name: `site-${stack}-${i}`,
          tags: ["shared-rate"],
        })),
      );
      projects = await Promise.all(
        fleets.map((devices, stack) =>
          createProject({
            name: `shared-rate-${front}-${stack}`,
            front,
            program: deviceFleetProgram(`site-${stack}`),
            files: { "fleet.json": JSON.stringify(devices) },
            config: { "devplatform:baseUrl": emulator.url },
          }),
        ),
      );
    });
    afterAll(async () => {
      await emulator.stop();
    });

    it(`every up succeeds, no device twice, Add a Device ≤ ${MAX_ADDS_PER_DEVICE} × devices`, async () => {
      await emulator.control.resetCounters();
      const ups = await Promise.all(projects.map((project) => project.up()));
      const counters = await emulator.control.counters();
      console.log(
        `${STACKS} × ${DEVICES} at ${RATE_LIMIT}/s (${front}): ${JSON.stringify({
          exitCodes: ups.map((up) => up.exitCode),
          byRoute: counters.byRoute,
          rateLimited: counters.rateLimited,
        })}`,
      );
      ups.forEach((up) => assertOk(up));
      // The limit was met: a fleet's rate doubles each second from 2 until the first refusal, so even
      // one alone goes past 10 a second before its 31 requests are done.
      const refused = Object.values(counters.rateLimited).reduce((sum, n) => sum + n, 0);
      expect(refused).toBeGreaterThan(0);
      const adds = counters.byRoute["POST /devices"] ?? 0;
      expect(adds).toBeGreaterThanOrEqual(STACKS * DEVICES);
      expect(adds).toBeLessThanOrEqual(MAX_ADDS_PER_DEVICE * STACKS * DEVICES);

      const onPlatform = (await emulator.control.state()).devices;
      expect(onPlatform).toHaveLength(STACKS * DEVICES);
      expect(new Set(onPlatform.map((d) => d.sn.toUpperCase())).size).toBe(STACKS * DEVICES);
      const platformIds = new Map(onPlatform.map((d) => [d.sn, d.deviceId]));
      for (const [stack, project] of projects.entries()) {
        const [fleet] = resourcesOfType(await project.exportStack(), project.token("DeviceFleet"));
        const ids = (fleet?.outputs?.deviceIds ?? {}) as Record<string, string>;
        expect(Object.keys(ids).sort()).toEqual((fleets[stack] as FleetDeviceSpec[]).map((d) => d.sn).sort());
        for (const [sn, id] of Object.entries(ids)) expect(id).toBe(platformIds.get(sn));
      }
    });
  },
);
