import type { FastifyRequest } from "fastify";
import { z } from "zod";
import type { EmulatorContext } from "../context";
import { EmulatorError } from "../http/emulator-error";
import { ErrCode } from "../http/err-codes";
import { applicationOf } from "../http/request-context";
import { parseWith } from "../http/validation";
import type { PlatformRoute } from "./platform-route";
import { profileUrlSchema, serialSchema } from "./schemas";

/** What the RPS operations put in `data` (documented only as "a String carrying the result"). */
export const RPS_RESULT = "success";

const rpsProfileSchema = z.object({ sn: serialSchema, profileUrl: profileUrlSchema });

/**
 * `POST /rps/profile`: Specify the Profile URL for RPS. Only for serial numbers that are not devices
 * on the platform (409 `device_on_platform`); specifying again for the same serial number replaces
 * the URL.
 */
export const setRpsProfileRoute: PlatformRoute = {
  method: "POST",
  url: "/rps/profile",
  run(ctx: EmulatorContext, request: FastifyRequest) {
    const { sn, profileUrl } = parseWith(rpsProfileSchema, request.body, "Specify the Profile URL body");
    const applicationId = applicationOf(request);
    if (ctx.store.deviceBySerial(sn)) {
      throw new EmulatorError(
        409,
        ErrCode.DeviceOnPlatform,
        `device ${sn} is on the platform; an RPS profile is only for devices not yet added`,
      );
    }
    const existing = ctx.store.rpsRecord(sn);
    if (existing && existing.applicationId !== applicationId) {
      throw new EmulatorError(
        409,
        ErrCode.RpsRecordExists,
        `device ${sn} has an RPS record of another application`,
      );
    }
    const now = ctx.clock.now();
    ctx.store.putRpsRecord({
      sn: existing?.sn ?? sn,
      profileUrl,
      applicationId,
      createdAt: existing?.createdAt ?? now,
      updatedAt: now,
    });
    return RPS_RESULT;
  },
};
