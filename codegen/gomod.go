package main

import (
	"fmt"
	"path"

	gogen "github.com/pulumi/pulumi/pkg/v3/codegen/go"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
	"golang.org/x/mod/modfile"
)

// pulumiGoSDK is the Go SDK a program on the generated SDK builds with: the CLI's version, which
// is what the engine and the program's other Pulumi modules expect.
const pulumiGoSDK = "v3.259.0"

// generateGo writes the Go SDK and its go.mod. Pulumi's generator writes a go.mod only for
// schemas that opt into "support pack" (which changes the other SDKs as well) and then pins the
// Pulumi SDK it was released with; this module instead requires the CLI's version, and its path is
// the schema's `language.go.importBasePath` without the package directory, so `go get` of that
// path fetches exactly the generated tree.
func generateGo(pkg *schema.Package) (map[string][]byte, error) {
	files, err := gogen.GeneratePackage(tool, pkg, nil)
	if err != nil {
		return nil, err
	}
	info, ok := pkg.Language["go"].(gogen.GoPackageInfo)
	if !ok || info.ImportBasePath == "" {
		return nil, fmt.Errorf("schema language.go.importBasePath is required for the Go module path")
	}
	var mod modfile.File
	if err := mod.AddModuleStmt(path.Dir(info.ImportBasePath)); err != nil {
		return nil, err
	}
	if err := mod.AddGoStmt("1.25.11"); err != nil {
		return nil, err
	}
	if err := mod.AddRequire("github.com/pulumi/pulumi/sdk/v3", pulumiGoSDK); err != nil {
		return nil, err
	}
	if files["go.mod"], err = mod.Format(); err != nil {
		return nil, err
	}
	return files, nil
}
