// The plugin lifecycle's program in Go, run by `pulumi up` (runtime: go) on the generated SDK as
// users `go get` it. It reads the resources' inputs from spec.json beside it (the e2e test rewrites
// it per step) and exports the same outputs as the lifecycle's programs in the other languages.
package main

import (
	"encoding/json"
	"os"

	"github.com/devplatform/pulumi-devplatform/plugin-sdks/go/devplatform"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

type spec struct {
	Resources struct {
		Device struct {
			Sn   string
			Name string
			Tags []string
		}
		Fleet []struct {
			Sn      string
			Name    string
			Project string
		}
		Rps struct {
			Sn         string
			ProfileUrl string
		}
		Config struct {
			Properties map[string]interface{}
		}
	}
}

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		raw, err := os.ReadFile("spec.json")
		if err != nil {
			return err
		}
		var s spec
		if err := json.Unmarshal(raw, &s); err != nil {
			return err
		}
		res := s.Resources

		device, err := devplatform.NewDevice(ctx, "device", &devplatform.DeviceArgs{
			Sn:   pulumi.String(res.Device.Sn),
			Name: pulumi.String(res.Device.Name),
			Tags: pulumi.ToStringArray(res.Device.Tags),
		})
		if err != nil {
			return err
		}
		devices := devplatform.DeviceFleetDeviceArray{}
		for _, d := range res.Fleet {
			devices = append(devices, devplatform.DeviceFleetDeviceArgs{
				Sn:      pulumi.String(d.Sn),
				Name:    pulumi.String(d.Name),
				Project: pulumi.String(d.Project),
			})
		}
		fleet, err := devplatform.NewDeviceFleet(ctx, "fleet", &devplatform.DeviceFleetArgs{Devices: devices})
		if err != nil {
			return err
		}
		rps, err := devplatform.NewRpsProfile(ctx, "rps", &devplatform.RpsProfileArgs{
			Sn:         pulumi.String(res.Rps.Sn),
			ProfileUrl: pulumi.String(res.Rps.ProfileUrl),
		})
		if err != nil {
			return err
		}
		config, err := devplatform.NewDeviceConfig(ctx, "config", &devplatform.DeviceConfigArgs{
			DeviceIds:  pulumi.StringArray{device.DeviceId},
			Properties: pulumi.ToMap(res.Config.Properties),
		})
		if err != nil {
			return err
		}

		ctx.Export("deviceId", device.DeviceId)
		ctx.Export("fleetDeviceIds", fleet.DeviceIds)
		ctx.Export("rpsProfileUrl", rps.ProfileUrl)
		ctx.Export("configProperties", config.Properties)
		ctx.Export("getDeviceName", devplatform.LookupDeviceOutput(ctx, devplatform.LookupDeviceOutputArgs{
			DeviceId: device.DeviceId,
		}).Name())
		return nil
	})
}
