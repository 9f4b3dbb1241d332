/**
 * The fleet the export tests read: 250 devices of the four models across three projects (a tenth
 * without one), with tags, awkward names and descriptions, configurations changed on some devices,
 * 5 RPS records, and a few devices and a record of another application that must not be exported.
 */
import {
  CONTROLLER,
  GATEWAY,
  SENSOR,
  SUB_DEVICE,
  serialNumberFor,
  type DeviceModel,
  type EmulatorControl,
  type SeedInput,
} from "../../../../emulator";
import type { InventoryEntry, RpsEntry } from "../../../../inventory";

/** The platform's projects in the fixture; "Building B" is not a slug, so its fleet key is hashed. */
export const PROJECTS = ["building-a", "Building B", "warehouse"] as const;

const MODELS: readonly DeviceModel[] = [SENSOR, GATEWAY, CONTROLLER, SUB_DEVICE];

/** Another application's id: its devices and records are invisible to the default credentials. */
export const OTHER_APPLICATION = "1650000000000000099";

/** What was seeded, as the export should write it. */
export interface SeededFleet {
  /** The default application's devices, in creation (listing) order. */
  inventory: InventoryEntry[];
  rps: RpsEntry[];
  /**
   * The configuration variant of each device: devices with the same variant have identical
   * configurations (and only they do).
   */
  variantOf: Map<string, string>;
}

function nameOf(i: number): string {
  if (i === 3) return 'lobby, "main" entrance';
  if (i === 7) return "Zürich — 東京 🚀";
  return `device-${i}`;
}

/** Seeds `count` devices (default 250) into the emulator's default application. */
export async function seedFleet(control: EmulatorControl, count = 250): Promise<SeededFleet> {
  const inventory: InventoryEntry[] = [];
  const variantOf = new Map<string, string>();
  const devices: NonNullable<SeedInput["devices"]> = [];
  for (let i = 0; i < count; i += 1) {
    const model = MODELS[i % 4] as DeviceModel;
    const sn = serialNumberFor(model, i + 1);
    const project = i % 10 === 9 ? undefined : PROJECTS[i % 3];
    const tags = i % 5 === 0 ? ["floor-1"] : i % 5 === 1 ? ["critical", "floor-2"] : [];
    const description = i === 11 ? "two lines:\nsecond" : i % 6 === 0 ? `seeded ${i}` : undefined;
    let properties: Record<string, unknown> | undefined;
    let variant = `${model.key}:default`;
    if (model === SENSOR && i % 3 === 0) {
      properties = { reportInterval: 900, alarmThreshold: { high: 28, low: 5 } };
      variant = "sensor:900";
    } else if (model === SENSOR && i % 3 === 1) {
      properties = { reportInterval: 300, temperature: 19.5 };
      variant = "sensor:300";
    } else if (model === CONTROLLER && i % 2 === 0) {
      properties = { setpoint: 19 };
      variant = "controller:19";
    }
    devices.push({ sn, name: nameOf(i), project, description, tag: tags, properties });
    const entry: InventoryEntry = { sn, name: nameOf(i) };
    if (project) entry.project = project;
    if (description) entry.description = description;
    if (tags.length > 0) entry.tags = tags;
    inventory.push(entry);
    variantOf.set(sn, variant);
  }
  const rps = Array.from({ length: 5 }, (_, i) => ({
    sn: serialNumberFor(MODELS[i % 4] as DeviceModel, i + 1, 7),
    profileUrl: `https://rps.example.com/profiles/${i + 1}`,
  }));
  await control.seed({
    devices: [
      ...devices,
      ...Array.from({ length: 5 }, (_, i) => ({
        sn: serialNumberFor(SENSOR, i + 1, 9),
        name: `other-${i}`,
        project: "building-a",
        applicationId: OTHER_APPLICATION,
      })),
    ],
    rpsRecords: [
      ...rps,
      {
        sn: serialNumberFor(GATEWAY, 1, 9),
        profileUrl: "https://rps.example.com/other",
        applicationId: OTHER_APPLICATION,
      },
    ],
  });
  return { inventory, rps, variantOf };
}
