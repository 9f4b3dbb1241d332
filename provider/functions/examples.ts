/**
 * The functions' examples in the schema (see `../core/schema-examples.ts`), by function. Each
 * declares what it reads, so that it runs on its own: a function given a resource's output runs once
 * the resource exists; one given plain arguments names the resource it must wait for (`dependsOn`,
 * which Pulumi YAML 1.25's `fn::invoke` does not wait for: there, an output is the argument).
 */
import type { SchemaExample } from "../core/schema-examples";
import { GO_IMPORT_BASE_PATH } from "../core/schema-spec";

const GO_IMPORTS = `
package main

import (
	"${GO_IMPORT_BASE_PATH}"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)
`;

/** getDevice by a Device's deviceId. */
export const GET_DEVICE_EXAMPLES: readonly SchemaExample[] = [
  {
    title: "A device's model and firmware, as the platform reports them",
    programs: {
      typescript: `
import * as devplatform from "@devplatform/pulumi";

const boiler = new devplatform.Device("240000F10006", { sn: "240000F10006", name: "boiler-room" });
const reported = devplatform.getDeviceOutput({ deviceId: boiler.deviceId });

export const model = reported.model;
export const firmwareVersion = reported.firmwareVersion;
`,
      python: `
import pulumi
import pulumi_devplatform as devplatform

boiler = devplatform.Device("240000F10006", sn="240000F10006", name="boiler-room")
reported = devplatform.get_device_output(device_id=boiler.device_id)

pulumi.export("model", reported.model)
pulumi.export("firmwareVersion", reported.firmware_version)
`,
      go: `${GO_IMPORTS}
func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		boiler, err := devplatform.NewDevice(ctx, "240000F10006", &devplatform.DeviceArgs{
			Sn:   pulumi.String("240000F10006"),
			Name: pulumi.String("boiler-room"),
		})
		if err != nil {
			return err
		}
		// getDevice is LookupDevice in Go: GetDevice is the Device resource's own lookup by id.
		reported := devplatform.LookupDeviceOutput(ctx, devplatform.LookupDeviceOutputArgs{DeviceId: boiler.DeviceId})
		ctx.Export("model", reported.Model())
		ctx.Export("firmwareVersion", reported.FirmwareVersion())
		return nil
	})
}
`,
      yaml: `
resources:
  240000F10006:
    type: devplatform:Device
    properties:
      sn: "240000F10006"
      name: boiler-room
variables:
  reported:
    fn::invoke:
      function: devplatform:getDevice
      arguments:
        deviceId: \${240000F10006.deviceId}
outputs:
  model: \${reported.model}
  firmwareVersion: \${reported.firmwareVersion}
`,
    },
  },
];

/** getDevices by project, once the device it should find is there. */
export const GET_DEVICES_EXAMPLES: readonly SchemaExample[] = [
  {
    title: "The devices of a project",
    programs: {
      typescript: `
import * as devplatform from "@devplatform/pulumi";

const door = new devplatform.Device("240000F10007", { sn: "240000F10007", name: "door-c", project: "building-c" });
// dependsOn: search once the door is added, not before.
const buildingC = devplatform.getDevicesOutput({ project: "building-c" }, { dependsOn: [door] });

export const deviceIds = buildingC.deviceIds;
`,
      python: `
import pulumi
import pulumi_devplatform as devplatform

door = devplatform.Device("240000F10007", sn="240000F10007", name="door-c", project="building-c")
# depends_on: search once the door is added, not before.
building_c = devplatform.get_devices_output(project="building-c", opts=pulumi.InvokeOutputOptions(depends_on=[door]))

pulumi.export("deviceIds", building_c.device_ids)
`,
      go: `${GO_IMPORTS}
func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		door, err := devplatform.NewDevice(ctx, "240000F10007", &devplatform.DeviceArgs{
			Sn:      pulumi.String("240000F10007"),
			Name:    pulumi.String("door-c"),
			Project: pulumi.String("building-c"),
		})
		if err != nil {
			return err
		}
		// DependsOn: search once the door is added, not before.
		buildingC := devplatform.GetDevicesOutput(ctx, devplatform.GetDevicesOutputArgs{
			Project: pulumi.String("building-c"),
		}, pulumi.DependsOn([]pulumi.Resource{door}))
		ctx.Export("deviceIds", buildingC.DeviceIds())
		return nil
	})
}
`,
      yaml: `
resources:
  240000F10007:
    type: devplatform:Device
    properties:
      sn: "240000F10007"
      name: door-c
      project: building-c
variables:
  buildingC:
    fn::invoke:
      function: devplatform:getDevices
      arguments:
        # The door's own project, an output: the search runs once the door is added, not before.
        # (Pulumi YAML's invoke waits for its arguments, not for \`dependsOn\`.)
        project: \${240000F10007.project}
outputs:
  deviceIds: \${buildingC.deviceIds}
`,
    },
  },
];

/** getThingModel of a Device: what a DeviceConfig may write on it. */
export const GET_THING_MODEL_EXAMPLES: readonly SchemaExample[] = [
  {
    title: "What a device's model lets a DeviceConfig write",
    programs: {
      typescript: `
import * as devplatform from "@devplatform/pulumi";

const coldStore = new devplatform.Device("240000F10008", { sn: "240000F10008", name: "cold-store" });
const model = devplatform.getThingModelOutput({ deviceId: coldStore.deviceId });

export const modelVersion = model.version;
export const writable = model.properties.apply((properties) =>
  properties.filter((p) => p.accessMode === "W" || p.accessMode === "RW").map((p) => p.id),
);
`,
      python: `
import pulumi
import pulumi_devplatform as devplatform

cold_store = devplatform.Device("240000F10008", sn="240000F10008", name="cold-store")
model = devplatform.get_thing_model_output(device_id=cold_store.device_id)

pulumi.export("modelVersion", model.version)
pulumi.export("writable", model.properties.apply(lambda properties: [p.id for p in properties if p.access_mode in ("W", "RW")]))
`,
      go: `${GO_IMPORTS}
func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		coldStore, err := devplatform.NewDevice(ctx, "240000F10008", &devplatform.DeviceArgs{
			Sn:   pulumi.String("240000F10008"),
			Name: pulumi.String("cold-store"),
		})
		if err != nil {
			return err
		}
		model := devplatform.GetThingModelOutput(ctx, devplatform.GetThingModelOutputArgs{DeviceId: coldStore.DeviceId})
		ctx.Export("modelVersion", model.Version())
		ctx.Export("writable", model.Properties().ApplyT(func(properties []devplatform.TslProperty) []string {
			writable := []string{}
			for _, p := range properties {
				if p.AccessMode != nil && (*p.AccessMode == "W" || *p.AccessMode == "RW") {
					writable = append(writable, p.Id)
				}
			}
			return writable
		}))
		return nil
	})
}
`,
      yaml: `
resources:
  240000F10008:
    type: devplatform:Device
    properties:
      sn: "240000F10008"
      name: cold-store
variables:
  model:
    fn::invoke:
      function: devplatform:getThingModel
      arguments:
        deviceId: \${240000F10008.deviceId}
outputs:
  modelVersion: \${model.version}
  properties: \${model.properties} # each with its id, accessMode (R, W or RW) and dataSpec
`,
    },
  },
];

/** getRpsProfiles of one serial number. */
export const GET_RPS_PROFILES_EXAMPLES: readonly SchemaExample[] = [
  {
    title: "The profile URL the platform holds for a serial number",
    programs: {
      typescript: `
import * as devplatform from "@devplatform/pulumi";

const gate = new devplatform.RpsProfile("AC0000F10009", {
  sn: "AC0000F10009",
  profileUrl: "https://rps.example.com/profiles/gate-9",
});
const listed = devplatform.getRpsProfilesOutput({ sn: gate.sn });

export const profileUrls = listed.profileUrls;
`,
      python: `
import pulumi
import pulumi_devplatform as devplatform

gate = devplatform.RpsProfile("AC0000F10009", sn="AC0000F10009", profile_url="https://rps.example.com/profiles/gate-9")
listed = devplatform.get_rps_profiles_output(sn=gate.sn)

pulumi.export("profileUrls", listed.profile_urls)
`,
      go: `${GO_IMPORTS}
func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		gate, err := devplatform.NewRpsProfile(ctx, "AC0000F10009", &devplatform.RpsProfileArgs{
			Sn:         pulumi.String("AC0000F10009"),
			ProfileUrl: pulumi.String("https://rps.example.com/profiles/gate-9"),
		})
		if err != nil {
			return err
		}
		listed := devplatform.GetRpsProfilesOutput(ctx, devplatform.GetRpsProfilesOutputArgs{Sn: gate.Sn})
		ctx.Export("profileUrls", listed.ProfileUrls())
		return nil
	})
}
`,
      yaml: `
resources:
  AC0000F10009:
    type: devplatform:RpsProfile
    properties:
      sn: "AC0000F10009"
      profileUrl: https://rps.example.com/profiles/gate-9
variables:
  listed:
    fn::invoke:
      function: devplatform:getRpsProfiles
      arguments:
        sn: \${AC0000F10009.sn}
outputs:
  profileUrls: \${listed.profileUrls}
`,
    },
  },
];
