// Command refgen writes the rule reference pages: one Markdown file per
// registered rule and an index, under docs/rules, and the JSON Schema of
// the settings, docs/nginx-lint.schema.json (config.Schema), which names
// every rule and option. It runs
// from `go generate ./analyzer/rules` (the working directory is then the
// rules package) and removes pages of rules that no longer exist, so the
// directory always mirrors the registry.
package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"

	"github.com/nginx-lint/nginx-lint/analyzer/config"
	"github.com/nginx-lint/nginx-lint/analyzer/rules"
	"github.com/nginx-lint/nginx-lint/internal/report"
)

// schemaFile is the settings' JSON Schema, beside the reference directory.
const schemaFile = "nginx-lint.schema.json"

func main() {
	dir, err := outputDir()
	if err == nil {
		err = generate(dir)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "refgen:", err)
		os.Exit(1)
	}
}

// outputDir is the reference directory: relative to the working directory
// under go generate (which runs in the package's directory), and found
// from the module root otherwise, so that running the command from
// anywhere cannot scatter pages elsewhere.
func outputDir() (string, error) {
	if os.Getenv("GOPACKAGE") == "rules" {
		return filepath.Join("..", "..", report.ReferenceDir), nil
	}
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return filepath.Join(dir, report.ReferenceDir), nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("no go.mod above the working directory; run go generate ./analyzer/rules")
		}
		dir = parent
	}
}

func generate(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	want := report.ReferencePages(rules.All().Rules())
	old, err := filepath.Glob(filepath.Join(dir, "*.md"))
	if err != nil {
		return err
	}
	for _, p := range old {
		if _, ok := want[filepath.Base(p)]; !ok {
			if err := os.Remove(p); err != nil {
				return err
			}
		}
	}
	schema, err := config.Schema(rules.All())
	if err != nil {
		return err
	}
	if err := writeChanged(filepath.Join(dir, "..", schemaFile), schema); err != nil {
		return err
	}
	for name, text := range want {
		if err := writeChanged(filepath.Join(dir, name), []byte(text)); err != nil {
			return err
		}
	}
	return nil
}

// writeChanged writes text to p unless p already holds it: rewriting only
// what changed keeps file times (and editors) calm.
func writeChanged(p string, text []byte) error {
	if cur, err := os.ReadFile(p); err == nil && bytes.Equal(cur, text) {
		return nil
	}
	return os.WriteFile(p, text, 0o644)
}
