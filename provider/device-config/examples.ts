/** The DeviceConfig's example in the schema (see `../core/schema-examples.ts`). */
import type { SchemaExample } from "../core/schema-examples";
import { GO_IMPORT_BASE_PATH } from "../core/schema-spec";

/**
 * A sensor's report interval and alarm thresholds (a STRUCT by child id). In Python the deviceId
 * is given as a string: Pulumi's Python SDK cannot serialize a list for this union input.
 */
export const DEVICE_CONFIG_EXAMPLES: readonly SchemaExample[] = [
  {
    title: "A sensor's report interval and alarm thresholds",
    programs: {
      typescript: `
import * as devplatform from "@devplatform/pulumi";

const sensor = new devplatform.Device("240000F10005", { sn: "240000F10005", name: "hall-sensor" });

const reporting = new devplatform.DeviceConfig("240000F10005-reporting", {
  deviceIds: [sensor.deviceId],
  properties: { reportInterval: 900, alarmThreshold: { high: 28, low: 5 } },
});

export const properties = reporting.properties;
`,
      python: `
import pulumi
import pulumi_devplatform as devplatform

sensor = devplatform.Device("240000F10005", sn="240000F10005", name="hall-sensor")

reporting = devplatform.DeviceConfig(
    "240000F10005-reporting",
    device_ids=sensor.device_id,
    properties={"reportInterval": 900, "alarmThreshold": {"high": 28, "low": 5}},
)

pulumi.export("properties", reporting.properties)
`,
      go: `
package main

import (
	"${GO_IMPORT_BASE_PATH}"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		sensor, err := devplatform.NewDevice(ctx, "240000F10005", &devplatform.DeviceArgs{
			Sn:   pulumi.String("240000F10005"),
			Name: pulumi.String("hall-sensor"),
		})
		if err != nil {
			return err
		}
		reporting, err := devplatform.NewDeviceConfig(ctx, "240000F10005-reporting", &devplatform.DeviceConfigArgs{
			DeviceIds: pulumi.StringArray{sensor.DeviceId},
			Properties: pulumi.Map{
				"reportInterval": pulumi.Int(900),
				"alarmThreshold": pulumi.Map{"high": pulumi.Float64(28), "low": pulumi.Float64(5)},
			},
		})
		if err != nil {
			return err
		}
		ctx.Export("properties", reporting.Properties)
		return nil
	})
}
`,
      yaml: `
resources:
  240000F10005:
    type: devplatform:Device
    properties:
      sn: "240000F10005"
      name: hall-sensor
  240000F10005-reporting:
    type: devplatform:DeviceConfig
    properties:
      deviceIds:
        - \${240000F10005.deviceId}
      properties:
        reportInterval: 900
        alarmThreshold:
          high: 28
          low: 5
outputs:
  properties: \${240000F10005-reporting.properties}
`,
    },
  },
];
