import type { EmulatorContext } from "../context";
import { EmulatorError } from "../http/emulator-error";
import { ErrCode } from "../http/err-codes";
import type { PlatformRoute } from "./platform-route";

function notImplemented(what: string): never {
  throw new EmulatorError(
    501,
    ErrCode.NotImplemented,
    `${what} is listed by the platform's documentation without parameters or response; the emulator does not implement it`,
  );
}

/** `GET /devices/{deviceId}/properties/history`: documented without details, so 501. */
export const propertiesHistoryRoute: PlatformRoute = {
  method: "GET",
  url: "/devices/:deviceId/properties/history",
  run(_ctx: EmulatorContext) {
    notImplemented("Query the Historical Data of Properties Reports");
  },
};

/** `POST /devices/{deviceId}/services/call`: documented without details, so 501. */
export const servicesCallRoute: PlatformRoute = {
  method: "POST",
  url: "/devices/:deviceId/services/call",
  run(_ctx: EmulatorContext) {
    notImplemented("Invoke Device Services Asynchronously");
  },
};
