import { z } from "zod";
import type { EmulatorStore, SequenceState } from "./store";
import type {
  AccessTokenRecord,
  Application,
  DeviceRecord,
  RefreshTokenRecord,
  RpsRecord,
  TaskRecord,
} from "./types";

/** Marks a file as an emulator state file. */
export const STATE_FORMAT = "devplatform-emulator-state";

/** What a state file holds: all platform state, tokens included; not faults, counters or the clock. */
export interface StateSnapshot {
  format: typeof STATE_FORMAT;
  version: 1;
  sequences: SequenceState;
  applications: Application[];
  devices: DeviceRecord[];
  rpsRecords: RpsRecord[];
  tasks: TaskRecord[];
  accessTokens: AccessTokenRecord[];
  refreshTokens: RefreshTokenRecord[];
}

// Records are the emulator's own output, so only the envelope is checked strictly; a file from
// another program or an incompatible version is refused instead of half-loaded.
const records = z.array(z.looseObject({}));
const snapshotSchema = z.object({
  format: z.literal(STATE_FORMAT),
  version: z.literal(1),
  sequences: z.object({ device: z.string(), task: z.string(), application: z.string() }),
  applications: records,
  devices: records,
  rpsRecords: records,
  tasks: records,
  accessTokens: records,
  refreshTokens: records,
});

/** Everything in the store, as plain data. */
export function takeSnapshot(store: EmulatorStore): StateSnapshot {
  return {
    format: STATE_FORMAT,
    version: 1,
    sequences: store.sequences(),
    applications: [...store.applications.values()],
    devices: [...store.devices.values()],
    rpsRecords: [...store.rpsRecords.values()],
    tasks: [...store.tasks.values()],
    accessTokens: [...store.accessTokens.values()],
    refreshTokens: [...store.refreshTokens.values()],
  };
}

/** Replaces the store's contents with a snapshot; throws when the data is not a state snapshot. */
export function restoreSnapshot(store: EmulatorStore, data: unknown): void {
  const parsed = snapshotSchema.safeParse(data);
  if (!parsed.success)
    throw new Error(`not an emulator state file: ${parsed.error.issues[0]?.message ?? "invalid"}`);
  const snapshot = parsed.data as unknown as StateSnapshot;
  store.clear();
  for (const a of snapshot.applications) store.applications.set(a.applicationId, a);
  for (const d of snapshot.devices) store.devices.set(d.deviceId, d);
  for (const r of snapshot.rpsRecords) store.rpsRecords.set(r.sn.toUpperCase(), r);
  for (const t of snapshot.tasks) store.tasks.set(t.taskId, t);
  for (const t of snapshot.accessTokens) store.accessTokens.set(t.token, t);
  for (const t of snapshot.refreshTokens) store.refreshTokens.set(t.token, t);
  store.deviceIds.restore(snapshot.sequences.device);
  store.taskIds.restore(snapshot.sequences.task);
  store.applicationIds.restore(snapshot.sequences.application);
  store.reindex();
}
