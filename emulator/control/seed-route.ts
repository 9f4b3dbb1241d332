/**
 * `POST /__emulator/seed`: a whole fleet in one call — thousands of devices of any model, with
 * property values, and RPS records — for tests and benchmarks that need a populated application
 * without one platform request per device. Everything is checked before anything is stored, so a
 * bad entry leaves the state as it was.
 */
import type { FastifyInstance } from "fastify";
import { modelForSerial, tslOf } from "../catalogue";
import type { EmulatorContext } from "../context";
import { createDevice } from "../devices/device-factory";
import { EmulatorError, invalidParameter } from "../http/emulator-error";
import { sendSuccess } from "../http/envelope";
import { ErrCode } from "../http/err-codes";
import { parseWith } from "../http/validation";
import { DEFAULT_APPLICATION_ID } from "../state/id-sequence";
import { serialKey } from "../state/store";
import type { PropertyMap } from "../state/types";
import { mergeInto } from "../tsl/apply-properties";
import { checkProperties } from "../tsl/validate-properties";
import { seedSchema, type SeedResult } from "./control-schemas";

/** A seed of 10,000 devices with properties is a few MiB; the platform routes keep fastify's 1 MiB. */
const SEED_BODY_LIMIT = 64 * 1024 * 1024;

type Seed = ReturnType<typeof seedSchema.parse>;

function conflict(errCode: ErrCode, message: string): EmulatorError {
  return new EmulatorError(409, errCode, message);
}

/** Checks the whole seed against itself and the state; returns each device's checked properties. */
function checkSeed(ctx: EmulatorContext, seed: Seed): (PropertyMap | undefined)[] {
  const inSeed = new Set<string>();
  const properties = seed.devices.map((device, index) => {
    const where = `devices[${index}] (${device.sn})`;
    const key = serialKey(device.sn);
    if (inSeed.has(key)) throw invalidParameter(`${where}: serial number given twice`);
    inSeed.add(key);
    const existing = ctx.store.deviceBySerial(device.sn);
    if (existing) {
      throw conflict(ErrCode.DeviceAlreadyExists, `${where}: device exists (deviceId ${existing.deviceId})`);
    }
    if (ctx.store.rpsRecord(device.sn))
      throw conflict(ErrCode.RpsRecordExists, `${where}: has an RPS record`);
    if (!device.properties) return undefined;
    const checked = checkProperties(tslOf(modelForSerial(device.sn)), device.properties, {
      ignoreAccessMode: true,
    });
    if (checked.problems.length > 0) throw invalidParameter(`${where}: ${checked.problems.join("; ")}`);
    return checked.values;
  });
  const records = new Set<string>();
  seed.rpsRecords.forEach((record, index) => {
    const where = `rpsRecords[${index}] (${record.sn})`;
    const key = serialKey(record.sn);
    if (records.has(key)) throw invalidParameter(`${where}: serial number given twice`);
    records.add(key);
    if (inSeed.has(key) || ctx.store.deviceBySerial(record.sn)) {
      throw conflict(
        ErrCode.DeviceOnPlatform,
        `${where}: a device with this serial number is on the platform`,
      );
    }
    const existing = ctx.store.rpsRecord(record.sn);
    const applicationId = record.applicationId ?? DEFAULT_APPLICATION_ID;
    if (existing && existing.applicationId !== applicationId) {
      throw conflict(ErrCode.RpsRecordExists, `${where}: has an RPS record of another application`);
    }
  });
  return properties;
}

/** Registers `POST /__emulator/seed` (part of the control API). */
export function registerSeedRoute(app: FastifyInstance, ctx: EmulatorContext): void {
  app.post("/__emulator/seed", { bodyLimit: SEED_BODY_LIMIT }, async (request, reply) => {
    const seed = parseWith(seedSchema, request.body, "seed");
    const properties = checkSeed(ctx, seed);
    const now = ctx.clock.now();
    const result: SeedResult = { devices: [], rpsRecords: [] };
    seed.devices.forEach((entry, index) => {
      const device = createDevice({
        deviceId: ctx.store.deviceIds.issue(),
        applicationId: ctx.store.ensureApplication(entry.applicationId ?? DEFAULT_APPLICATION_ID)
          .applicationId,
        sn: entry.sn,
        name: entry.name,
        description: entry.description,
        project: entry.project,
        tag: entry.tag ?? [],
        now,
      });
      const values = properties[index];
      if (values) mergeInto(device.properties, values);
      ctx.store.insertDevice(device);
      result.devices.push({ sn: device.sn, deviceId: device.deviceId });
    });
    for (const record of seed.rpsRecords) {
      const applicationId = record.applicationId ?? DEFAULT_APPLICATION_ID;
      const existing = ctx.store.rpsRecord(record.sn);
      ctx.store.ensureApplication(applicationId);
      ctx.store.putRpsRecord({
        sn: existing?.sn ?? record.sn,
        profileUrl: record.profileUrl,
        applicationId,
        createdAt: existing?.createdAt ?? now,
        updatedAt: now,
      });
      result.rpsRecords.push({ sn: record.sn, profileUrl: record.profileUrl });
    }
    return sendSuccess(request, reply, result);
  });
}
