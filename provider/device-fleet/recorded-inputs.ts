/**
 * How a DeviceFleet's inputs are recorded where a front-end records the checked inputs under the
 * program's names (the plugin): the fleet's name is the resource's own, and its checked entries
 * (`entries`, keyed by serial number) are recorded as `devices`, so that the engine resolves the
 * diff's paths, `devices["240000A10003"].name`, against the recorded inputs in `preview --diff`.
 * (The dynamic resource passes the name as `fleetName` and records `entries` as they are.)
 */
import type { RecordedInputs } from "../core/kind";
import { UNKNOWN, type Inputs } from "../shared/input-checks";
import { isPlainObject } from "../../sdk/plain-object";

export const fleetRecordedInputs: RecordedInputs = {
  // A `fleetName` in the program cannot change the name; `devices` arrive as the typed list the
  // schema declares, which the check takes as it is.
  checkInputs: (news, name) => ({ ...news, fleetName: name }),

  checkedSecrets(secrets) {
    const checked = new Set(secrets);
    if (secrets.has("devices")) checked.add("entries");
    return checked;
  },

  recorded(checked: Inputs): Inputs {
    if (!Object.hasOwn(checked, "entries")) return checked;
    const { entries, ...rest } = checked;
    return { ...rest, devices: entries };
  },

  operationInputs(inputs: Inputs): Inputs {
    // A list is the program's form (the inputs an import read recorded): the check takes it as it is.
    if (!isPlainObject(inputs.devices)) return inputs;
    const { devices, ...rest } = inputs;
    return { ...rest, entries: devices };
  },

  // Entries in, the platform's facts out: a preview answers `devices` unknown (or, when stable, as it was).
  reshaped: ["devices"],

  // The serial numbers are the recorded entries' keys, known at preview; the ids are not (a device
  // to add has none yet, and one recorded may be re-added), so each value stays unknown.
  previewOutputs(recorded: Inputs): Inputs {
    if (!isPlainObject(recorded.devices)) return {};
    const serials = Object.keys(recorded.devices);
    return {
      devices: Object.fromEntries(serials.map((sn) => [sn, { deviceId: UNKNOWN }])),
      deviceIds: Object.fromEntries(serials.map((sn) => [sn, UNKNOWN])),
    };
  },
};
