/** The DeviceFleet's example in the schema (see `../core/schema-examples.ts`). */
import type { SchemaExample } from "../core/schema-examples";
import { GO_IMPORT_BASE_PATH } from "../core/schema-spec";

/** A fleet of two devices; the fleet's name is its id. */
export const DEVICE_FLEET_EXAMPLES: readonly SchemaExample[] = [
  {
    title: "The devices of one site",
    programs: {
      typescript: `
import * as devplatform from "@devplatform/pulumi";

const siteB = new devplatform.DeviceFleet("site-b", {
  devices: [
    { sn: "240000F10002", name: "site-b-entrance", project: "site-b" },
    { sn: "240000F10003", name: "site-b-door", project: "site-b", tags: ["door"] },
  ],
});

export const deviceIds = siteB.deviceIds;
`,
      python: `
import pulumi
import pulumi_devplatform as devplatform

site_b = devplatform.DeviceFleet(
    "site-b",
    devices=[
        devplatform.DeviceFleetDeviceArgs(sn="240000F10002", name="site-b-entrance", project="site-b"),
        devplatform.DeviceFleetDeviceArgs(sn="240000F10003", name="site-b-door", project="site-b", tags=["door"]),
    ],
)

pulumi.export("deviceIds", site_b.device_ids)
`,
      go: `
package main

import (
	"${GO_IMPORT_BASE_PATH}"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		siteB, err := devplatform.NewDeviceFleet(ctx, "site-b", &devplatform.DeviceFleetArgs{
			Devices: devplatform.DeviceFleetDeviceArray{
				devplatform.DeviceFleetDeviceArgs{
					Sn:      pulumi.String("240000F10002"),
					Name:    pulumi.String("site-b-entrance"),
					Project: pulumi.String("site-b"),
				},
				devplatform.DeviceFleetDeviceArgs{
					Sn:      pulumi.String("240000F10003"),
					Name:    pulumi.String("site-b-door"),
					Project: pulumi.String("site-b"),
					Tags:    pulumi.StringArray{pulumi.String("door")},
				},
			},
		})
		if err != nil {
			return err
		}
		ctx.Export("deviceIds", siteB.DeviceIds)
		return nil
	})
}
`,
      yaml: `
resources:
  site-b:
    type: devplatform:DeviceFleet
    properties:
      devices:
        - sn: "240000F10002"
          name: site-b-entrance
          project: site-b
        - sn: "240000F10003"
          name: site-b-door
          project: site-b
          tags:
            - door
outputs:
  deviceIds: \${site-b.deviceIds}
`,
    },
  },
];
