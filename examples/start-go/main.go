// One device, its configuration, and what the platform reports about it.
package main

import (
	"github.com/devplatform/pulumi-devplatform/plugin-sdks/go/devplatform"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		lobby, err := devplatform.NewDevice(ctx, "lobby", &devplatform.DeviceArgs{
			Sn:   pulumi.String("240000A10003"),
			Name: pulumi.String("lobby-temperature"),
			Tags: pulumi.StringArray{pulumi.String("floor-1")},
		})
		if err != nil {
			return err
		}
		_, err = devplatform.NewDeviceConfig(ctx, "lobby-config", &devplatform.DeviceConfigArgs{
			DeviceIds:  pulumi.StringArray{lobby.DeviceId},
			Properties: pulumi.Map{"reportInterval": pulumi.Int(900)},
		})
		if err != nil {
			return err
		}
		ctx.Export("deviceId", lobby.DeviceId)
		ctx.Export("firmware", devplatform.LookupDeviceOutput(ctx, devplatform.LookupDeviceOutputArgs{
			DeviceId: lobby.DeviceId,
		}).FirmwareVersion())
		return nil
	})
}
