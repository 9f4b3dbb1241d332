/**
 * `/__emulator/interleave`: another writer's changes made at an exact point of a client's work —
 * right before the Nth request of a route (counted from when it is scheduled) reaches its handler.
 * A test can thus add or delete devices and RPS records between two pages of a client's listing,
 * deterministically, with no sleep and no hold: the change happens inside the emulator, in order.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import { insertSeededDevice } from "./seed-device";
import { sendSuccess } from "../http/envelope";
import { isControlRoute, routeKeyOf } from "../http/route-key";
import { parseWith } from "../http/validation";
import { DEFAULT_APPLICATION_ID } from "../state/id-sequence";
import type { PlatformScope } from "../state/platform-scope";
import { idSchema, profileUrlSchema, serialSchema } from "../routes/schemas";
import { seedDeviceSchema } from "./control-schemas";

/** Body of `POST /__emulator/interleave`. */
export const interleaveSchema = z.object({
  /** A counter key, e.g. `POST /devices/search`. */
  route: z.string().min(1),
  /** The changes run right before this request of the route, counted from now (1 = the next one). */
  before: z.number().int().min(1),
  addDevices: z.array(seedDeviceSchema).default([]),
  deleteDevices: z.array(idSchema).default([]),
  addRpsRecords: z.array(z.object({ sn: serialSchema, profileUrl: profileUrlSchema })).default([]),
  deleteRpsRecords: z.array(serialSchema).default([]),
});

/** What a client sends to schedule another writer's changes. */
export type InterleaveInput = z.input<typeof interleaveSchema>;
type Interleave = z.output<typeof interleaveSchema>;

/** An interleaving that ran: which devices it added (with their ids) and what it deleted. */
export interface InterleaveDone {
  route: string;
  before: number;
  added: { sn: string; deviceId: string }[];
  deleted: string[];
  rpsAdded: string[];
  rpsDeleted: string[];
}

/** What `GET /__emulator/interleave` reports. */
export interface InterleaveView {
  pending: number;
  done: InterleaveDone[];
}

/** The scheduled and completed interleavings of one emulator. */
export class Interleavings {
  private pending: { spec: Interleave; remaining: number }[] = [];
  private done: InterleaveDone[] = [];

  schedule(spec: Interleave): void {
    this.pending.push({ spec, remaining: spec.before });
  }

  view(): InterleaveView {
    return { pending: this.pending.length, done: [...this.done] };
  }

  clear(): void {
    this.pending = [];
    this.done = [];
  }

  /** Counts a request of `route`; runs the interleavings now due, in the order they were scheduled. */
  beforeRequest(ctx: PlatformScope, route: string): void {
    const due = this.pending.filter((p) => p.spec.route === route && --p.remaining === 0);
    if (due.length === 0) return;
    this.pending = this.pending.filter((p) => !due.includes(p));
    for (const { spec } of due) this.done.push(apply(ctx, spec));
  }
}

/** Applies what can be applied: a serial number already present or an id already gone is skipped. */
function apply(ctx: PlatformScope, spec: Interleave): InterleaveDone {
  const added: InterleaveDone["added"] = [];
  for (const seed of spec.addDevices) {
    if (ctx.store.deviceBySerial(seed.sn) || ctx.store.rpsRecord(seed.sn)) continue;
    const device = insertSeededDevice(ctx, seed);
    added.push({ sn: device.sn, deviceId: device.deviceId });
  }
  const deleted = spec.deleteDevices.filter((id) => ctx.store.deleteDevice(id));
  const rpsAdded: string[] = [];
  for (const { sn, profileUrl } of spec.addRpsRecords) {
    if (ctx.store.deviceBySerial(sn) || ctx.store.rpsRecord(sn)) continue;
    const now = ctx.clock.now();
    ctx.store.putRpsRecord({
      sn,
      profileUrl,
      applicationId: DEFAULT_APPLICATION_ID,
      createdAt: now,
      updatedAt: now,
    });
    rpsAdded.push(sn);
  }
  const rpsDeleted = spec.deleteRpsRecords.filter((sn) => ctx.store.deleteRpsRecord(sn));
  return { route: spec.route, before: spec.before, added, deleted, rpsAdded, rpsDeleted };
}

/** A hook after counting: runs the interleavings due before this platform request is handled. */
export function runInterleavings(ctx: PlatformScope, interleavings: Interleavings) {
  return async function onRequest(request: FastifyRequest): Promise<void> {
    const pattern = request.routeOptions.url;
    if (pattern === undefined || isControlRoute(pattern)) return;
    interleavings.beforeRequest(ctx, routeKeyOf(request.method, pattern));
  };
}

/** `POST /__emulator/interleave` schedules; `GET` reports what is pending and what ran. */
export function registerInterleaveRoutes(app: FastifyInstance, interleavings: Interleavings): void {
  app.post("/__emulator/interleave", async (request, reply) => {
    interleavings.schedule(parseWith(interleaveSchema, request.body, "interleave"));
    return sendSuccess(request, reply, interleavings.view());
  });
  app.get("/__emulator/interleave", async (request, reply) =>
    sendSuccess(request, reply, interleavings.view()),
  );
}
