package main

import (
	"context"
	"fmt"

	"github.com/blang/semver"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
)

// offlineLoader resolves only the built-in `pulumi` package. The devplatform schema references no
// other package, so generation never needs a plugin host (which would start provider plugins).
type offlineLoader struct{}

var _ schema.ReferenceLoader = offlineLoader{}

func (offlineLoader) unknown(name string) error {
	return fmt.Errorf("schema references package %q; only the self-contained devplatform schema is supported", name)
}

func (l offlineLoader) LoadPackage(pkg string, version *semver.Version) (*schema.Package, error) {
	return l.LoadPackageV2(context.Background(), &schema.PackageDescriptor{Name: pkg, Version: version})
}

func (l offlineLoader) LoadPackageV2(ctx context.Context, d *schema.PackageDescriptor) (*schema.Package, error) {
	ref, err := l.LoadPackageReferenceV2(ctx, d)
	if err != nil {
		return nil, err
	}
	return ref.Definition()
}

func (l offlineLoader) LoadPackageReference(pkg string, version *semver.Version) (schema.PackageReference, error) {
	return l.LoadPackageReferenceV2(context.Background(), &schema.PackageDescriptor{Name: pkg, Version: version})
}

func (l offlineLoader) LoadPackageReferenceV2(
	_ context.Context, d *schema.PackageDescriptor,
) (schema.PackageReference, error) {
	if d.Name == "pulumi" {
		return schema.DefaultPulumiPackage.Reference(), nil
	}
	return nil, l.unknown(d.Name)
}
