/**
 * `pulumi import devplatform:index:DeviceFleet NAME FILTER`: every device of the application that
 * matches the filter becomes an entry of the fleet, declared as the platform has it (so the next
 * preview is empty), and managed from then on.
 *
 * The filter is `project=<project>` (the devices of one project; `project=` those without one) or
 * `projects=<a>,<b>,…` (of any of them). The platform's search has no project filter: the
 * application's devices are listed (⌈N/100⌉ requests) and filtered here.
 */
import type { DeviceDetails } from "../../sdk";
import { projectOf } from "../device/desired";
import { platformClient } from "../platform-access/platform-client";
import { describeFailure, ResourceOperationError } from "../shared/errors";
import { definedInputs, type Inputs } from "../shared/input-checks";
import type { ImportedResource } from "../core/kind";
import { SETTING_INPUTS, type FleetEntry } from "./inputs";
import { entryFromPlatform, FleetLedger, infoOf } from "./state";
import { stackMarker } from "../guardrails/stack-marker";
import { carriesOnly } from "../shared/owner-marker";

const SYNTAX = "`project=<project>` or `projects=<a>,<b>,…`";

/** The projects an import filter selects. */
export function parseFleetImportId(id: string): ReadonlySet<string> {
  const match = /^(project|projects)=(.*)$/.exec(id.trim());
  if (!match) {
    throw new ResourceOperationError(
      `import DeviceFleet ${id} failed: the import id must be ${SYNTAX}, got "${id}"`,
    );
  }
  const [, key, value = ""] = match;
  if (key === "project") return new Set([value.trim()]);
  const projects = value
    .split(",")
    .map((p) => p.trim())
    .filter((p) => p !== "");
  if (projects.length === 0) {
    throw new ResourceOperationError(
      `import DeviceFleet ${id} failed: projects= names no project; it is ${SYNTAX}`,
    );
  }
  return new Set(projects);
}

/** A declared entry of a platform device (in the program's form: with its serial number). */
function declared(device: DeviceDetails, sn: string): Inputs {
  const entry: Partial<FleetEntry> = entryFromPlatform(device, sn);
  delete entry.tslVersion;
  return definedInputs({ sn, ...entry });
}

/**
 * Reads the devices an import filter selects. `name` is the fleet's resource name, its id; without
 * it the filter is the id until the fleet's first update.
 */
export async function importDeviceFleet(id: string, name?: string): Promise<ImportedResource> {
  const projects = parseFleetImportId(id);
  const fleet = name ?? id;
  return describeFailure(`import DeviceFleet ${fleet} (${id})`, async () => {
    const client = await platformClient();
    const ledger = new FleetLedger();
    // Devices carrying this stack's owner tag are recorded so; the others gain it at the next `up`.
    const marker = await stackMarker();
    ledger.useMarker(marker);
    const devices: Inputs[] = [];
    for await (const device of client.listDevices({ sorts: [{ property: "deviceId", direction: "asc" }] })) {
      if (!device.sn || !projects.has(projectOf(device))) continue;
      const entry = declared(device, device.sn);
      devices.push(entry);
      const { sn: _sn, ...applied } = entry;
      ledger.record(device.sn, device.deviceId, applied as FleetEntry, infoOf(device));
      if (marker !== undefined && carriesOnly(device.tag, marker)) ledger.setMarked(device.sn);
    }
    return { id: fleet, inputs: { devices }, outputs: ledger.toOutputs(fleet, {}) };
  });
}

/**
 * The declared inputs within a fleet's recorded state, as the plugin records checked inputs: what is
 * applied, keyed by serial number, under the program's name `devices`, with its name and settings.
 */
export function deviceFleetInputsOf(state: Inputs): Inputs {
  const ledger = FleetLedger.fromOutputs(state);
  return definedInputs({
    fleetName: state.fleetName,
    devices: ledger.appliedEntriesRecord(),
    ...Object.fromEntries(SETTING_INPUTS.map((key) => [key, state[key]])),
  });
}
