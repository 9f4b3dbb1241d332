/** The RpsProfile's example in the schema (see `../core/schema-examples.ts`). */
import type { SchemaExample } from "../core/schema-examples";
import { GO_IMPORT_BASE_PATH } from "../core/schema-spec";

/** An RPS record named by its serial number, as its id is. */
export const RPS_PROFILE_EXAMPLES: readonly SchemaExample[] = [
  {
    title: "A controller's profile URL",
    programs: {
      typescript: `
import * as devplatform from "@devplatform/pulumi";

const controller = new devplatform.RpsProfile("AC0000F10004", {
  sn: "AC0000F10004",
  profileUrl: "https://rps.example.com/profiles/controller-4",
});

export const profileUrl = controller.profileUrl;
`,
      python: `
import pulumi
import pulumi_devplatform as devplatform

controller = devplatform.RpsProfile(
    "AC0000F10004",
    sn="AC0000F10004",
    profile_url="https://rps.example.com/profiles/controller-4",
)

pulumi.export("profileUrl", controller.profile_url)
`,
      go: `
package main

import (
	"${GO_IMPORT_BASE_PATH}"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		controller, err := devplatform.NewRpsProfile(ctx, "AC0000F10004", &devplatform.RpsProfileArgs{
			Sn:         pulumi.String("AC0000F10004"),
			ProfileUrl: pulumi.String("https://rps.example.com/profiles/controller-4"),
		})
		if err != nil {
			return err
		}
		ctx.Export("profileUrl", controller.ProfileUrl)
		return nil
	})
}
`,
      yaml: `
resources:
  AC0000F10004:
    type: devplatform:RpsProfile
    properties:
      sn: "AC0000F10004"
      profileUrl: https://rps.example.com/profiles/controller-4
outputs:
  profileUrl: \${AC0000F10004.profileUrl}
`,
    },
  },
];
