/**
 * How an RpsFleet's inputs are recorded where a front-end records the checked inputs under the
 * program's names (the plugin): the batch's name is the resource's own, and its checked entries
 * (serial number → URL) are recorded as `records`, so that the engine resolves the diff's paths,
 * `records["AC0000F10004"]`, against the recorded inputs. (The dynamic resource passes the name as
 * `fleetName` and records `entries` as they are.)
 */
import type { RecordedInputs } from "../core/kind";
import type { Inputs } from "../shared/input-checks";
import { isPlainObject } from "../../sdk/plain-object";

export const rpsFleetRecordedInputs: RecordedInputs = {
  checkInputs: (news, name) => ({ ...news, fleetName: name }),

  checkedSecrets(secrets) {
    const checked = new Set(secrets);
    if (secrets.has("records")) checked.add("entries");
    return checked;
  },

  recorded(checked: Inputs): Inputs {
    if (!Object.hasOwn(checked, "entries")) return checked;
    const { entries, ...rest } = checked;
    return { ...rest, records: entries };
  },

  operationInputs(inputs: Inputs): Inputs {
    // A list is the program's form (what an import recorded): the check takes it as it is.
    if (!isPlainObject(inputs.records)) return inputs;
    const { records, ...rest } = inputs;
    return { ...rest, entries: records };
  },

  reshaped: [],

  // The declared URLs are what the batch applies: a stack policy sees them at preview.
  previewOutputs(recorded: Inputs): Inputs {
    return isPlainObject(recorded.records) ? { profileUrls: recorded.records } : {};
  },
};
