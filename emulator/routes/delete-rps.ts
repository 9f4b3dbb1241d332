import type { FastifyRequest } from "fastify";
import type { EmulatorContext } from "../context";
import { pathParam } from "../devices/device-lookup";
import { EmulatorError, invalidParameter } from "../http/emulator-error";
import { ErrCode } from "../http/err-codes";
import { applicationOf } from "../http/request-context";
import type { PlatformRoute } from "./platform-route";
import { SERIAL_NUMBER } from "./schemas";
import { RPS_RESULT } from "./set-rps-profile";

/** `DELETE /rps/{sn}`: Delete RPS Record of a Device; 404 `rps_record_not_found` when there is none. */
export const deleteRpsRoute: PlatformRoute = {
  method: "DELETE",
  url: "/rps/:sn",
  run(ctx: EmulatorContext, request: FastifyRequest) {
    const sn = pathParam(request, "sn");
    if (!SERIAL_NUMBER.test(sn))
      throw invalidParameter(`sn must be 12 to 16 hex digits or digits, got "${sn}"`);
    const record = ctx.store.rpsRecord(sn);
    if (!record || record.applicationId !== applicationOf(request)) {
      throw new EmulatorError(404, ErrCode.RpsRecordNotFound, `no RPS record for ${sn} in this application`);
    }
    ctx.store.deleteRpsRecord(sn);
    return RPS_RESULT;
  },
};
