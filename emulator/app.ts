import Fastify, { type FastifyInstance } from "fastify";
import { EmulatorContext } from "./context";
import { registerControlRoutes } from "./control/control-routes";
import { registerInterleaveRoutes, runInterleavings } from "./control/interleave";
import { countAndInjectFaults } from "./hooks/count-and-inject-faults";
import { registerHeldBodies } from "./hooks/hold-requests";
import { registerBodyParsers } from "./http/body-parsers";
import { registerErrorHandlers } from "./http/error-handler";
import { newRequestId } from "./http/request-id";
import { resolveOptions, type EmulatorOptions } from "./options";
import { registerPlatformRoutes } from "./routes/platform-routes";
import { restoreSnapshot, takeSnapshot } from "./state/snapshot";
import { readStateFile, StateFileWriter } from "./state/state-file";

const contexts = new WeakMap<FastifyInstance, EmulatorContext>();

/** The emulator state behind an app made by {@link createApp} (for in-process tools and tests). */
export function contextOf(app: FastifyInstance): EmulatorContext {
  const ctx = contexts.get(app);
  if (!ctx) throw new Error("not an emulator app");
  return ctx;
}

/** Loads the state file if there is one, and saves to it after every change and on close. */
function attachStateFile(app: FastifyInstance, ctx: EmulatorContext, path: string, delayMs: number): void {
  const saved = readStateFile(path);
  if (saved !== undefined) {
    restoreSnapshot(ctx.store, saved);
    ctx.tasks.resumePending();
  }
  const writer = new StateFileWriter(path, () => takeSnapshot(ctx.store), delayMs);
  if (saved === undefined) {
    // Write the empty state at once, so an unwritable path fails the start instead of a later save.
    writer.markDirty();
    writer.flush();
  }
  ctx.store.onChange(() => writer.markDirty());
  app.addHook("onClose", async () => writer.flush());
}

/**
 * A fastify app that emulates the device platform: the token endpoint, every device, RPS and task
 * operation under `/device/openapi/{v1|v1.0|V1.0}`, and (with `control`) the `/__emulator/` API.
 * Not listening yet; see `startEmulator` for a running server.
 */
export function createApp(options: EmulatorOptions = {}): FastifyInstance {
  const resolved = resolveOptions(options);
  const ctx = new EmulatorContext(resolved);
  const app = Fastify({
    logger: false,
    genReqId: newRequestId,
    exposeHeadRoutes: false,
    // Keep-alive sockets must not hold close() up; the CLI stops promptly on SIGTERM.
    forceCloseConnections: true,
  });
  contexts.set(app, ctx);
  registerBodyParsers(app);
  registerErrorHandlers(app);
  app.addHook("onRequest", countAndInjectFaults(ctx));
  registerHeldBodies(app);
  registerPlatformRoutes(app, ctx);
  if (resolved.control) {
    registerControlRoutes(app, ctx);
    app.addHook("onRequest", runInterleavings(ctx, ctx.interleavings));
    registerInterleaveRoutes(app, ctx.interleavings);
  }
  if (resolved.statePath) attachStateFile(app, ctx, resolved.statePath, resolved.stateWriteDelayMs);
  // Held requests would otherwise keep close() waiting for them; they end unperformed.
  app.addHook("preClose", async () => {
    ctx.holds.releaseAll("fail");
    // Answers a waiting settle call, and keeps no delivery going after the emulator stopped.
    await ctx.webhooks?.close();
  });
  app.addHook("onClose", async () => ctx.tasks.cancelAll());
  return app;
}
