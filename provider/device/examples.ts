/** The Device's example in the schema (see `../core/schema-examples.ts`). */
import type { SchemaExample } from "../core/schema-examples";
import { GO_IMPORT_BASE_PATH } from "../core/schema-spec";

/** A device named by its serial number, so that a rename is an update, never a delete and an add. */
export const DEVICE_EXAMPLES: readonly SchemaExample[] = [
  {
    title: "A device with its project and tags",
    programs: {
      typescript: `
import * as devplatform from "@devplatform/pulumi";

const lobby = new devplatform.Device("240000F10001", {
  sn: "240000F10001",
  name: "lobby-temperature",
  project: "building-a",
  tags: ["floor-1"],
});

export const deviceId = lobby.deviceId;
`,
      python: `
import pulumi
import pulumi_devplatform as devplatform

lobby = devplatform.Device(
    "240000F10001",
    sn="240000F10001",
    name="lobby-temperature",
    project="building-a",
    tags=["floor-1"],
)

pulumi.export("deviceId", lobby.device_id)
`,
      go: `
package main

import (
	"${GO_IMPORT_BASE_PATH}"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		lobby, err := devplatform.NewDevice(ctx, "240000F10001", &devplatform.DeviceArgs{
			Sn:      pulumi.String("240000F10001"),
			Name:    pulumi.String("lobby-temperature"),
			Project: pulumi.String("building-a"),
			Tags:    pulumi.StringArray{pulumi.String("floor-1")},
		})
		if err != nil {
			return err
		}
		ctx.Export("deviceId", lobby.DeviceId)
		return nil
	})
}
`,
      yaml: `
resources:
  240000F10001:
    type: devplatform:Device
    properties:
      sn: "240000F10001" # quoted: YAML reads some serial numbers (240000E00001) as numbers
      name: lobby-temperature
      project: building-a
      tags:
        - floor-1
outputs:
  deviceId: \${240000F10001.deviceId}
`,
    },
  },
];
