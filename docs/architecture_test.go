package docs

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestArchitectureMap keeps the package map of architecture.md true:
// every directory of the module with Go files (testdata and hidden ones
// aside) has an entry, a line that starts with its path and "/", and
// every entry names such a directory.
func TestArchitectureMap(t *testing.T) {
	text, err := os.ReadFile("architecture.md")
	if err != nil {
		t.Fatal(err)
	}
	// The map is the first fenced block.
	parts := strings.SplitN(string(text), "```", 3)
	if len(parts) < 3 {
		t.Fatal("architecture.md has no fenced package map")
	}
	mapped := map[string]bool{}
	for _, line := range strings.Split(parts[1], "\n") {
		if line == "" || line[0] == ' ' {
			continue // a continuation line
		}
		dir, _, _ := strings.Cut(line, " ")
		if !strings.HasSuffix(dir, "/") {
			t.Errorf("map line %q: the entry does not start with a directory and \"/\"", line)
			continue
		}
		mapped[strings.TrimSuffix(dir, "/")] = true
	}
	var pkgs []string
	root := ".."
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != root && (name == "testdata" || name == "node_modules" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(name, ".go") {
			rel, err := filepath.Rel(root, filepath.Dir(path))
			if err != nil {
				return err
			}
			rel = filepath.ToSlash(rel)
			if !slices.Contains(pkgs, rel) {
				pkgs = append(pkgs, rel)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(pkgs) < 20 {
		t.Fatalf("only %d packages found: %v", len(pkgs), pkgs)
	}
	for _, p := range pkgs {
		if !mapped[p] {
			t.Errorf("package %s is not in the map of architecture.md", p)
		}
	}
	for m := range mapped {
		if !slices.Contains(pkgs, m) {
			t.Errorf("architecture.md maps %s/, which is no package of the module", m)
		}
	}
}
