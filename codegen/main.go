// Command codegen writes the devplatform provider's Node.js and Python SDKs from its schema.json
// with Pulumi's own codegen libraries, at the CLI's version, without a plugin host.
//
//	codegen -schema schema.json -out plugin-sdks          # (re)writes plugin-sdks/nodejs, plugin-sdks/python
//	codegen -schema schema.json -out plugin-sdks -check   # exits 1 naming every file that differs
package main

import (
	"flag"
	"fmt"
	"os"
	"sort"
)

const tool = "pulumi-devplatform codegen"

func main() {
	schemaPath := flag.String("schema", "schema.json", "the package schema")
	outDir := flag.String("out", "plugin-sdks", "the directory that holds one SDK per language")
	check := flag.Bool("check", false, "compare the SDKs on disk with the schema instead of writing them")
	flag.Parse()

	sdks, err := generate(*schemaPath)
	if err != nil {
		fmt.Fprintf(os.Stderr, "codegen: %v\n", err)
		os.Exit(2)
	}
	languages := make([]string, 0, len(sdks))
	for language := range sdks {
		languages = append(languages, language)
	}
	sort.Strings(languages)

	stale := []string{}
	for _, language := range languages {
		dir := *outDir + "/" + language
		if *check {
			diffs, err := compareTree(dir, sdks[language])
			if err != nil {
				fmt.Fprintf(os.Stderr, "codegen: %v\n", err)
				os.Exit(2)
			}
			stale = append(stale, diffs...)
			continue
		}
		if err := writeTree(dir, sdks[language]); err != nil {
			fmt.Fprintf(os.Stderr, "codegen: %v\n", err)
			os.Exit(2)
		}
		fmt.Fprintf(os.Stderr, "codegen: wrote %d files to %s\n", len(sdks[language]), dir)
	}
	if len(stale) > 0 {
		fmt.Fprintf(os.Stderr, "codegen: the committed SDKs differ from %s (run `npm run codegen`):\n", *schemaPath)
		for _, d := range stale {
			fmt.Fprintf(os.Stderr, "  %s\n", d)
		}
		os.Exit(1)
	}
	if *check {
		fmt.Fprintf(os.Stderr, "codegen: the SDKs in %s match %s\n", *outDir, *schemaPath)
	}
}
