import { z } from "zod";
import { idSchema, nameSchema, serialSchema, tagsSchema } from "../routes/schemas";
import { profileUrlSchema } from "../routes/schemas";
import { CONNECT_STATUSES, LICENSE_STATUSES, SEND_AS_FIELDS } from "../state/types";

/** Body of `POST /__emulator/reset`. */
export const resetSchema = z.object({ keepTokens: z.boolean().optional() }).optional();

/** Body of `POST /__emulator/clock/advance`. */
export const advanceClockSchema = z.object({ seconds: z.number().min(0) });

/**
 * Body of `PUT /__emulator/quota`: an application's use today, as `used` or as `remaining` (not
 * both), and optionally the daily quota itself (null: unlimited). `applicationId` defaults to the
 * application of the emulator's credentials.
 */
export const quotaChangeSchema = z
  .object({
    applicationId: z.string().regex(/^\d+$/, "must be a string of digits").optional(),
    used: z.number().int().min(0).optional(),
    remaining: z.number().int().min(0).optional(),
    dailyQuota: z.number().int().min(0).nullable().optional(),
  })
  .refine((c) => c.used === undefined || c.remaining === undefined, "give used or remaining, not both");

/** {@link quotaChangeSchema}'s input. */
export type QuotaChangeInput = z.input<typeof quotaChangeSchema>;

/** Body of `PUT /__emulator/tasks/hold`: hold configuration tasks PENDING, or let them run. */
export const holdTasksSchema = z.object({ held: z.boolean() });

const RPS_STATUS = { ENABLED: true, ACTIVATE: true, DISABLED: false, UNACTIVATED: false } as const;

/** Body of `PATCH /__emulator/devices/{deviceId}`: an out-of-band change, as if made elsewhere. */
export const deviceChangeSchema = z.object({
  name: nameSchema.optional(),
  /** A string sets it, null removes it. */
  description: z.string().nullable().optional(),
  /** A string sets the project tag, null removes it. */
  project: z.string().nullable().optional(),
  tag: tagsSchema.optional(),
  connectStatus: z.enum(CONNECT_STATUSES).optional(),
  licenseStatus: z.enum(LICENSE_STATUSES).optional(),
  /** `ENABLED`/`ACTIVATE` or `DISABLED`/`UNACTIVATED`. */
  rpsStatus: z
    .enum(["ENABLED", "ACTIVATE", "DISABLED", "UNACTIVATED"])
    .transform((s) => RPS_STATUS[s])
    .optional(),
  /** Battery level, 0..100; null removes it. */
  electricity: z.number().int().min(0).max(100).nullable().optional(),
  /** Property values, checked against the TSL model's data types (any accessMode). */
  properties: z.record(z.string(), z.unknown()).optional(),
  /**
   * Any string to send verbatim as the field's value from now on, in the query and search views
   * alike (an undocumented or misspelled value); null goes back to the rendered value.
   */
  sendAs: z.partialRecord(z.enum(SEND_AS_FIELDS), z.string().min(1).nullable()).optional(),
});

/** What a client sends to change a device out of band. */
export type DeviceChangeInput = z.input<typeof deviceChangeSchema>;

/** Body of `POST /__emulator/devices`: seed a device, optionally in another application. */
export const seedDeviceSchema = z.object({
  sn: serialSchema,
  name: nameSchema,
  applicationId: idSchema.optional(),
  description: z.string().optional(),
  project: z.string().optional(),
  tag: tagsSchema.optional(),
});

/** What a client sends to seed a device. */
export type SeedDeviceInput = z.input<typeof seedDeviceSchema>;

/**
 * Body of `POST /__emulator/seed`: many devices (of any model, chosen by serial-number prefix, with
 * optional property values) and RPS records in one call, all or nothing.
 */
export const seedSchema = z.object({
  devices: z
    .array(
      seedDeviceSchema.extend({
        /** Property values, checked against the model's default TSL (any accessMode). */
        properties: z.record(z.string(), z.unknown()).optional(),
      }),
    )
    .default([]),
  rpsRecords: z
    .array(z.object({ sn: serialSchema, profileUrl: profileUrlSchema, applicationId: idSchema.optional() }))
    .default([]),
});

/** What a client sends to seed a fleet. */
export type SeedInput = z.input<typeof seedSchema>;

/** What the seed created: each device's id, and the RPS records. */
export interface SeedResult {
  devices: { sn: string; deviceId: string }[];
  rpsRecords: { sn: string; profileUrl: string }[];
}
