package main

import (
	"encoding/json"
	"fmt"
	"os"

	gogen "github.com/pulumi/pulumi/pkg/v3/codegen/go"
	"github.com/pulumi/pulumi/pkg/v3/codegen/nodejs"
	"github.com/pulumi/pulumi/pkg/v3/codegen/python"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
)

// languageDefaults are the SDKs' package settings, each used where the schema's own language block
// leaves that key out: the schema sets names and descriptions; the build pins the SDK's version to
// the schema's (no `${VERSION}` placeholder to patch) and the toolchain the project uses.
var languageDefaults = map[string]map[string]any{
	"nodejs": {
		"packageName":          "@devplatform/pulumi",
		"packageDescription":   "Pulumi SDK for the devplatform provider plugin (generated from schema.json).",
		"dependencies":         map[string]string{"@pulumi/pulumi": "^3.259.0"},
		"devDependencies":      map[string]string{"@types/node": "^22.19.0", "typescript": "~5.9.3"},
		"typescriptVersion":    "~5.9.3",
		"respectSchemaVersion": true,
	},
	"go": {
		"respectSchemaVersion": true,
	},
	"python": {
		"packageName":          "pulumi_devplatform",
		"requires":             map[string]string{"pulumi": ">=3.259.0,<4.0.0"},
		"pythonRequires":       ">=3.9",
		"respectSchemaVersion": true,
		"pyproject":            map[string]bool{"enabled": true},
	},
}

// loadSpec reads the schema and fills the language blocks it leaves out.
func loadSpec(path string) (schema.PackageSpec, error) {
	var spec schema.PackageSpec
	raw, err := os.ReadFile(path)
	if err != nil {
		return spec, err
	}
	if err := json.Unmarshal(raw, &spec); err != nil {
		return spec, fmt.Errorf("%s: %w", path, err)
	}
	if spec.Language == nil {
		spec.Language = map[string]schema.RawMessage{}
	}
	for language, defaults := range languageDefaults {
		settings := map[string]any{}
		if raw, set := spec.Language[language]; set {
			if err := json.Unmarshal(raw, &settings); err != nil {
				return spec, fmt.Errorf("%s: language.%s: %w", path, language, err)
			}
		}
		for key, value := range defaults {
			if _, set := settings[key]; !set {
				settings[key] = value
			}
		}
		encoded, err := json.Marshal(settings)
		if err != nil {
			return spec, err
		}
		spec.Language[language] = encoded
	}
	return spec, nil
}

// bind checks the schema and binds it; each language gets a fresh binding because generation
// records its own settings on the package.
func bind(spec schema.PackageSpec) (*schema.Package, error) {
	languages := map[string]schema.Language{"go": gogen.Importer, "nodejs": nodejs.Importer, "python": python.Importer}
	pkg, err := schema.ImportSpec(spec, languages, offlineLoader{}, schema.ValidationOptions{})
	if err != nil {
		return nil, fmt.Errorf("binding the schema: %w", err)
	}
	return pkg, nil
}

// generate answers each SDK's files by language ("go", "nodejs", "python"), paths relative to the SDK.
func generate(schemaPath string) (map[string]map[string][]byte, error) {
	spec, err := loadSpec(schemaPath)
	if err != nil {
		return nil, err
	}
	out := map[string]map[string][]byte{}

	pkg, err := bind(spec)
	if err != nil {
		return nil, err
	}
	if out["nodejs"], err = nodejs.GeneratePackage(tool, pkg, nil, nil, false, offlineLoader{}); err != nil {
		return nil, fmt.Errorf("generating the Node.js SDK: %w", err)
	}

	if pkg, err = bind(spec); err != nil {
		return nil, err
	}
	if out["python"], err = python.GeneratePackage(tool, pkg, nil, offlineLoader{}); err != nil {
		return nil, fmt.Errorf("generating the Python SDK: %w", err)
	}

	if pkg, err = bind(spec); err != nil {
		return nil, err
	}
	if out["go"], err = generateGo(pkg); err != nil {
		return nil, fmt.Errorf("generating the Go SDK: %w", err)
	}
	return out, nil
}
