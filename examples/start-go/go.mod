module my-fleet-go

go 1.25

require (
	github.com/devplatform/pulumi-devplatform/plugin-sdks/go v0.1.0
	github.com/pulumi/pulumi/sdk/v3 v3.259.0
)
