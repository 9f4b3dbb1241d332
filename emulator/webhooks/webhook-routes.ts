import { setTimeout as sleep } from "node:timers/promises";
import type { FastifyInstance } from "fastify";
import type { EmulatorContext } from "../context";
import { invalidParameter } from "../http/emulator-error";
import { sendSuccess } from "../http/envelope";
import type { DeliveryView } from "./delivery-queue";
import { emitWebhookTest } from "./emit";

/** `GET /__emulator/webhooks/deliveries`: the webhook's id and every delivery with its attempts. */
export interface WebhookDeliveriesView {
  /** False when the emulator runs without `webhookUrl`/`webhookSecret`. */
  enabled: boolean;
  /** The `x-msc-webhook-uuid` the deliveries carry; null when webhooks are off. */
  webhookUuid: string | null;
  deliveries: DeliveryView[];
}

function deliveriesView(ctx: EmulatorContext): WebhookDeliveriesView {
  const dispatcher = ctx.webhooks;
  return {
    enabled: dispatcher !== undefined,
    webhookUuid: dispatcher?.webhookUuid ?? null,
    deliveries: dispatcher?.views() ?? [],
  };
}

/** How often settle looks whether the pending tasks have run; only how soon it answers depends on it. */
const TASK_POLL_MS = 10;

/** Waits until no task is PENDING, unless tasks are held (then they stay PENDING on purpose). */
async function tasksRun(ctx: EmulatorContext): Promise<void> {
  const pending = () => [...ctx.store.tasks.values()].some((task) => task.status === "PENDING");
  while (ctx.webhooks?.isClosed() === false && !ctx.tasks.isHolding() && pending()) await sleep(TASK_POLL_MS);
}

/**
 * The webhook part of the control API: deliveries and their attempts, a `WEBHOOK_TEST` event (the
 * platform's Test button), and a call that answers once every task that is not held has run and
 * every delivery has settled (delivered or given up), so that tests need no sleeps.
 */
export function registerWebhookRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  app.get("/__emulator/webhooks/deliveries", async (request, reply) =>
    sendSuccess(request, reply, deliveriesView(ctx)),
  );

  app.post("/__emulator/webhooks/test", async (request, reply) => {
    const event = emitWebhookTest(ctx);
    if (!event) throw invalidParameter("webhooks are off: start the emulator with a webhook URL and secret");
    return sendSuccess(request, reply, { eventId: event.eventId });
  });

  app.post("/__emulator/webhooks/settle", async (request, reply) => {
    await tasksRun(ctx);
    await ctx.webhooks?.settled();
    return sendSuccess(request, reply, deliveriesView(ctx));
  });
}
