import type { FastifyInstance } from "fastify";
import type { EmulatorContext } from "../context";
import { faultConfigSchema } from "../faults/fault-config";
import { sendSuccess } from "../http/envelope";
import { parseWith } from "../http/validation";
import { invalidParameter } from "../http/emulator-error";
import { DEFAULT_APPLICATION_ID } from "../state/id-sequence";
import { advanceClockSchema, holdTasksSchema, quotaChangeSchema, resetSchema } from "./control-schemas";
import { controlDevice, type EmulatorStateView } from "./control-views";
import { registerDeviceControlRoutes } from "./device-control-routes";
import { registerHoldRoutes } from "./hold-routes";
import { registerSeedRoute } from "./seed-route";
import { registerWebhookRoutes } from "../webhooks/webhook-routes";

function stateView(ctx: EmulatorContext): EmulatorStateView {
  return {
    devices: [...ctx.store.devices.values()].map(controlDevice),
    rpsRecords: [...ctx.store.rpsRecords.values()],
    tasks: [...ctx.store.tasks.values()],
  };
}

/**
 * The control API under `/__emulator/` (no OAuth, never counted or faulted): reset, faults, clock,
 * out-of-band device changes, seeding, state, tasks, counters, the daily quota and holds. Registered only when `control` is on.
 */
export function registerControlRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  app.post("/__emulator/reset", async (request, reply) => {
    ctx.reset(parseWith(resetSchema, request.body, "reset") ?? {});
    return sendSuccess(request, reply, null);
  });

  app.get("/__emulator/faults", async (request, reply) =>
    sendSuccess(request, reply, ctx.faults.current() ?? null),
  );
  app.put("/__emulator/faults", async (request, reply) => {
    const config = parseWith(faultConfigSchema, request.body, "fault configuration");
    ctx.faults.set(config);
    return sendSuccess(request, reply, config);
  });
  app.delete("/__emulator/faults", async (request, reply) => {
    ctx.faults.clear();
    return sendSuccess(request, reply, null);
  });

  app.post("/__emulator/clock/advance", async (request, reply) => {
    const { seconds } = parseWith(advanceClockSchema, request.body, "clock advance");
    ctx.clock.advance(seconds);
    return sendSuccess(request, reply, { offsetSeconds: ctx.clock.offsetSeconds(), now: ctx.clock.now() });
  });

  app.get("/__emulator/quota", async (request, reply) =>
    sendSuccess(request, reply, ctx.quota.view(ctx.clock.now())),
  );
  app.put("/__emulator/quota", async (request, reply) => {
    const { applicationId = DEFAULT_APPLICATION_ID, ...change } = parseWith(
      quotaChangeSchema,
      request.body,
      "quota change",
    );
    const quota = change.dailyQuota === undefined ? ctx.quota.dailyQuota : (change.dailyQuota ?? undefined);
    if (change.remaining !== undefined && quota === undefined)
      throw invalidParameter(
        "invalid quota change: remaining: needs a daily quota (--daily-quota or dailyQuota)",
      );
    ctx.quota.set(applicationId, change, ctx.clock.now());
    return sendSuccess(request, reply, ctx.quota.view(ctx.clock.now()));
  });

  registerDeviceControlRoutes(app, ctx);
  registerSeedRoute(app, ctx);
  registerHoldRoutes(app, ctx);
  registerWebhookRoutes(app, ctx);

  app.get("/__emulator/state", async (request, reply) => sendSuccess(request, reply, stateView(ctx)));
  app.get("/__emulator/tasks", async (request, reply) =>
    sendSuccess(request, reply, [...ctx.store.tasks.values()]),
  );

  app.put("/__emulator/tasks/hold", async (request, reply) => {
    const { held } = parseWith(holdTasksSchema, request.body, "tasks hold");
    ctx.tasks.hold(held);
    return sendSuccess(request, reply, { held: ctx.tasks.isHolding() });
  });

  app.get("/__emulator/tokens", async (request, reply) =>
    sendSuccess(request, reply, { issued: ctx.tokens.issuedTokens() }),
  );

  app.get("/__emulator/counters", async (request, reply) =>
    sendSuccess(request, reply, ctx.counters.snapshot()),
  );
  app.delete("/__emulator/counters", async (request, reply) => {
    ctx.counters.reset();
    return sendSuccess(request, reply, null);
  });
}
