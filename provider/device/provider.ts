/**
 * The Device implementation behind the serialized provider: check, diff, create (with adoption of
 * an already-added serial number and the RPS take-over), read for refresh and import, update and
 * delete.
 */
import * as pulumi from "@pulumi/pulumi";
import { ConflictError, NotFoundError, type Device as PlatformDevice } from "../../sdk";
import { describeFailure, ResourceOperationError } from "../shared/errors";
import { definedInputs, InputChecker, SERIAL_NUMBER, type Inputs } from "../shared/input-checks";
import { platformClient } from "../runtime/platform-client";

const INPUTS = [
  "sn",
  "name",
  "description",
  "project",
  "tags",
  "tslVersion",
  "takeOverRps",
  "adoptExisting",
] as const;
/** Changing these replaces the device: PUT cannot change them. */
const REPLACE_ON = ["sn", "project"] as const;
/** Changing these updates the device in place with PUT. */
const UPDATE_ON = ["name", "description", "tags", "tslVersion"] as const;

/** The desired state of a device, from checked inputs. */
export interface DesiredDevice {
  sn: string;
  name: string;
  description?: string;
  project?: string;
  tags?: string[];
  tslVersion?: string;
  takeOverRps?: boolean;
  adoptExisting?: boolean;
}

function desired(inputs: Inputs): DesiredDevice {
  return definedInputs(Object.fromEntries(INPUTS.map((k) => [k, inputs[k]]))) as unknown as DesiredDevice;
}

/** Compares a property as the platform does: no description is an empty one, no tags an empty list. */
function normalised(key: string, value: unknown): unknown {
  if (value === undefined || value === null) return key === "tags" ? [] : "";
  return value;
}

function differs(key: string, olds: Inputs, news: Inputs): boolean {
  return JSON.stringify(normalised(key, olds[key])) !== JSON.stringify(normalised(key, news[key]));
}

/** The platform's view of a device as outputs (status fields included; they never drive a diff). */
export function deviceOutputs(device: PlatformDevice): Inputs {
  return definedInputs({
    deviceId: device.deviceId,
    devEUI: device.devEUI,
    imei: device.imei,
    model: device.model,
    hardwareVersion: device.hardwareVersion,
    firmwareVersion: device.firmwareVersion,
    deviceType: device.deviceType,
    connectStatus: device.connectStatus,
    licenseStatus: device.licenseStatus,
    rpsStatus: device.rpsStatus,
    applicationId: device.application?.applicationId,
    applicationName: device.application?.applicationName,
    electricity: device.electricity,
    lastUpdateTime: device.lastUpdateTime,
  });
}

/** The inputs that would produce the platform's current device, for refresh and import. */
function inputsFromPlatform(device: PlatformDevice, previous: Inputs): Inputs {
  return definedInputs({
    sn: device.sn,
    name: device.name,
    description: device.description || undefined,
    project: device.project || undefined,
    tags: device.tag && device.tag.length > 0 ? device.tag : undefined,
    // The platform does not report these: keep what the program declared.
    tslVersion: previous.tslVersion,
    takeOverRps: previous.takeOverRps,
    adoptExisting: previous.adoptExisting,
  });
}

function updateBody(deviceId: string, want: DesiredDevice) {
  return {
    deviceId,
    name: want.name,
    description: want.description ?? "",
    tag: want.tags ?? [],
    ...(want.tslVersion ? { tslVersion: want.tslVersion } : {}),
  };
}

async function releaseRpsRecord(sn: string): Promise<void> {
  const client = await platformClient();
  try {
    await client.deleteRpsProfile(sn);
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error;
  }
}

/** Adds the device, or adopts the one already in this application with the same serial number. */
async function addOrAdopt(want: DesiredDevice): Promise<{ deviceId: string; adopted: boolean }> {
  const client = await platformClient();
  try {
    const added = await client.addDevice({
      snDevEUI: want.sn,
      name: want.name,
      ...(want.description ? { description: want.description } : {}),
      ...(want.project ? { project: want.project } : {}),
      ...(want.tags ? { tag: want.tags } : {}),
    });
    return { deviceId: added.deviceId, adopted: false };
  } catch (error) {
    if (!(error instanceof ConflictError) || error.errCode !== "device_already_exists") throw error;
    const existing = await client.findDeviceBySn(want.sn);
    if (!existing) throw error;
    if (want.adoptExisting === false) {
      throw new ResourceOperationError(
        `create Device sn=${want.sn} failed: the serial number is already in this application as deviceId ` +
          `${existing.deviceId} (${error.message}); remove adoptExisting: false to adopt that device into this ` +
          "stack (dynamic resources cannot use the import option), or delete it from the platform first",
        { cause: error, code: error.code },
      );
    }
    return { deviceId: existing.deviceId, adopted: true };
  }
}

export const deviceImplementation: Omit<Required<pulumi.dynamic.ResourceProvider>, "configure"> = {
  async check(_olds, news) {
    const failures = new InputChecker(news, "Device")
      .knownProperties(INPUTS)
      .string("sn", { required: true, pattern: SERIAL_NUMBER, patternRule: "must be 12 to 16 hex digits" })
      .string("name", { required: true })
      .string("description")
      .string("project")
      .tags("tags")
      .string("tslVersion")
      .boolean("takeOverRps")
      .boolean("adoptExisting").failures;
    return { inputs: definedInputs(news), failures };
  },

  async diff(_id, olds, news) {
    const replaces = REPLACE_ON.filter((key) => differs(key, olds, news));
    const updates = UPDATE_ON.filter((key) => differs(key, olds, news));
    return {
      changes: replaces.length + updates.length > 0,
      replaces,
      // One serial number can be on the platform once: the old device must go first.
      deleteBeforeReplace: replaces.length > 0,
    };
  },

  async create(inputs) {
    const want = desired(inputs);
    return describeFailure(`create Device sn=${want.sn}`, async () => {
      const client = await platformClient();
      if (want.takeOverRps) await releaseRpsRecord(want.sn);
      const { deviceId, adopted } = await addOrAdopt(want);
      if (adopted || want.tslVersion) await client.updateDevice(updateBody(deviceId, want));
      if (adopted) {
        await pulumi.log.warn(
          `Device sn=${want.sn}: adopted deviceId ${deviceId}, which was already in this application`,
        );
      }
      const device = await client.getDevice(deviceId);
      return { id: deviceId, outs: { ...definedInputs(inputs), ...deviceOutputs(device) } };
    });
  },

  async read(id, props) {
    return describeFailure(`read Device deviceId=${id}`, async () => {
      const client = await platformClient();
      let device: PlatformDevice;
      try {
        device = await client.getDevice(id);
      } catch (error) {
        // Gone from the platform: an empty id drops the resource from state on refresh.
        if (error instanceof NotFoundError) return { id: "", props: {} };
        throw error;
      }
      const inputs = inputsFromPlatform(device, props);
      return { id, props: { ...inputs, ...deviceOutputs(device) }, inputs };
    });
  },

  async update(id, _olds, news) {
    const want = desired(news);
    return describeFailure(`update Device deviceId=${id} sn=${want.sn}`, async () => {
      const client = await platformClient();
      await client.updateDevice(updateBody(id, want));
      const device = await client.getDevice(id);
      return { outs: { ...definedInputs(news), ...deviceOutputs(device) } };
    });
  },

  async delete(id, props) {
    await describeFailure(`delete Device deviceId=${id} sn=${String(props.sn)}`, async () => {
      const client = await platformClient();
      try {
        await client.deleteDevice(id);
      } catch (error) {
        // Already gone counts as deleted.
        if (!(error instanceof NotFoundError)) throw error;
      }
    });
  },
};
