/**
 * The facts one provider process publishes to the others of its deployment (see shared-record.ts):
 * one JSON line each, checked with this schema when read, so that a line that is not one fails the
 * reader instead of being taken for "nobody owns it".
 */
import { z } from "zod";

const deviceOwner = z.object({
  kind: z.enum(["Device", "DeviceFleet"]),
  fleet: z.string().optional(),
  urn: z.string().optional(),
});

/** One fact one process publishes. */
export const sharedFact = z.discriminatedUnion("t", [
  z.object({
    t: z.literal("device-declare"),
    owner: deviceOwner,
    serials: z.array(z.object({ sn: z.string(), project: z.string() })),
    at: z.number(),
  }),
  z.object({ t: z.literal("device-claim"), deviceId: z.string(), sn: z.string(), owner: deviceOwner }),
  z.object({ t: z.literal("device-release"), deviceId: z.string() }),
  z.object({ t: z.literal("rps-declare"), sn: z.string(), at: z.number() }),
  z.object({ t: z.literal("rps-claim"), sn: z.string() }),
  // Every serial number one RpsFleet declares (replacing its previous declaration; see rps-ownership.ts).
  z.object({
    t: z.literal("rps-batch-declare"),
    batch: z.string(),
    serials: z.array(z.string()),
    at: z.number(),
  }),
  z.object({
    t: z.literal("property-declare"),
    owner: z.object({ id: z.string(), deviceIds: z.array(z.string()) }),
    deviceIds: z.array(z.string()),
    keys: z.array(z.string()),
    at: z.number(),
  }),
  z.object({ t: z.literal("program-ran") }),
  // Devices a resource of the writer removes in this deployment (see removal-budget.ts), by its URN
  // where the request named one (two fleets named alike under two parents are two resources).
  z.object({
    t: z.literal("removals"),
    resource: z.string(),
    urn: z.string().optional(),
    count: z.number(),
    serials: z.array(z.string()),
    at: z.number(),
  }),
  // The platform refused a request of the writer for the spent daily quota (see quota-share.ts).
  z.object({
    t: z.literal("quota-exhausted"),
    method: z.string(),
    path: z.string(),
    status: z.number().optional(),
    errCode: z.string().optional(),
    errMsg: z.string().optional(),
    requestId: z.string().optional(),
    at: z.number(),
  }),
]);
export type SharedFact = z.infer<typeof sharedFact>;
