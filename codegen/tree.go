package main

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// buildOutputs are directories inside an SDK that builds and installs create, never codegen.
var buildOutputs = map[string]bool{"bin": true, "node_modules": true, "__pycache__": true, "build": true}

// existingFiles lists the generated-looking files under dir (relative, slash-separated).
func existingFiles(dir string) (map[string]bool, error) {
	found := map[string]bool{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if os.IsNotExist(err) && p == dir {
				return filepath.SkipDir
			}
			return err
		}
		if d.IsDir() {
			if buildOutputs[d.Name()] || strings.HasSuffix(d.Name(), ".egg-info") {
				return filepath.SkipDir
			}
			return nil
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		found[filepath.ToSlash(rel)] = true
		return nil
	})
	return found, err
}

// compareTree names each file that is missing, different or not generated any more.
func compareTree(dir string, files map[string][]byte) ([]string, error) {
	existing, err := existingFiles(dir)
	if err != nil {
		return nil, err
	}
	diffs := []string{}
	for name, content := range files {
		path := filepath.Join(dir, name)
		onDisk, err := os.ReadFile(path)
		switch {
		case os.IsNotExist(err):
			diffs = append(diffs, "missing:   "+path)
		case err != nil:
			return nil, err
		case !bytes.Equal(onDisk, content):
			diffs = append(diffs, "differs:   "+path)
		}
		delete(existing, name)
	}
	for name := range existing {
		diffs = append(diffs, "not generated: "+filepath.Join(dir, name))
	}
	sort.Strings(diffs)
	return diffs, nil
}

// writeTree makes dir hold exactly the generated files (build outputs left alone).
func writeTree(dir string, files map[string][]byte) error {
	existing, err := existingFiles(dir)
	if err != nil {
		return err
	}
	for name := range existing {
		if _, generated := files[name]; !generated {
			if err := os.Remove(filepath.Join(dir, name)); err != nil {
				return err
			}
		}
	}
	for name, content := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(path, content, 0o644); err != nil {
			return err
		}
	}
	return nil
}
