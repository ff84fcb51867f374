// Package testfiles writes small trees of files for tests: a main
// configuration with the sites, snippets and settings it reads.
package testfiles

import (
	"os"
	"path/filepath"
	"testing"
)

// Write writes each file (a name relative to dir, and its text) under
// dir, making the directories it needs; any failure ends the test.
func Write(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
