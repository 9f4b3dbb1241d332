/** The RpsFleet's example in the schema (see `../core/schema-examples.ts`). */
import type { SchemaExample } from "../core/schema-examples";
import { GO_IMPORT_BASE_PATH } from "../core/schema-spec";

/** A shipment of two controllers; the batch's name is its id. */
export const RPS_FLEET_EXAMPLES: readonly SchemaExample[] = [
  {
    title: "The RPS records of one shipment",
    programs: {
      typescript: `
import * as devplatform from "@devplatform/pulumi";

const shipment = new devplatform.RpsFleet("shipment-7", {
  records: [
    { sn: "AC0000F1000A", profileUrl: "https://rps.example.com/profiles/controller" },
    { sn: "AC0000F1000B", profileUrl: "https://rps.example.com/profiles/controller" },
  ],
  maxRemovals: 10,
});

export const profileUrls = shipment.profileUrls;
`,
      python: `
import pulumi
import pulumi_devplatform as devplatform

shipment = devplatform.RpsFleet(
    "shipment-7",
    records=[
        devplatform.RpsFleetRecordArgs(sn="AC0000F1000A", profile_url="https://rps.example.com/profiles/controller"),
        devplatform.RpsFleetRecordArgs(sn="AC0000F1000B", profile_url="https://rps.example.com/profiles/controller"),
    ],
    max_removals=10,
)

pulumi.export("profileUrls", shipment.profile_urls)
`,
      go: `
package main

import (
	"${GO_IMPORT_BASE_PATH}"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		shipment, err := devplatform.NewRpsFleet(ctx, "shipment-7", &devplatform.RpsFleetArgs{
			Records: devplatform.RpsFleetRecordArray{
				devplatform.RpsFleetRecordArgs{
					Sn:         pulumi.String("AC0000F1000A"),
					ProfileUrl: pulumi.String("https://rps.example.com/profiles/controller"),
				},
				devplatform.RpsFleetRecordArgs{
					Sn:         pulumi.String("AC0000F1000B"),
					ProfileUrl: pulumi.String("https://rps.example.com/profiles/controller"),
				},
			},
			MaxRemovals: pulumi.Int(10),
		})
		if err != nil {
			return err
		}
		ctx.Export("profileUrls", shipment.ProfileUrls)
		return nil
	})
}
`,
      yaml: `
resources:
  shipment-7:
    type: devplatform:RpsFleet
    properties:
      records:
        - sn: "AC0000F1000A"
          profileUrl: https://rps.example.com/profiles/controller
        - sn: "AC0000F1000B"
          profileUrl: https://rps.example.com/profiles/controller
      maxRemovals: 10
outputs:
  profileUrls: \${shipment-7.profileUrls}
`,
    },
  },
];
