package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// stockLayouts are the layouts of testdata/layouts, each the configuration
// a distribution's or image's package installs.
var stockLayouts = []string{"alpine", "debian", "docker", "fedora", "openresty"}

// layoutFiles returns every regular file of each stock layout (README
// aside), by layout, and fails unless every layout is there with files.
func layoutFiles(t *testing.T) map[string][]string {
	t.Helper()
	root := testdata("layouts")
	out := map[string][]string{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		if !d.Type().IsRegular() || !strings.Contains(rel, string(filepath.Separator)) {
			return nil // links are their targets; README.md at the top
		}
		layout := strings.SplitN(rel, string(filepath.Separator), 2)[0]
		out[layout] = append(out[layout], p)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	names := make([]string, 0, len(out))
	for n := range out {
		names = append(names, n)
	}
	sort.Strings(names)
	if strings.Join(names, " ") != strings.Join(stockLayouts, " ") {
		t.Fatalf("layouts %v, want %v", names, stockLayouts)
	}
	return out
}

// TestFmtStockLayouts: every file of every stock layout (nginx.conf,
// sites, mime.types, the *_params files, the charset maps) is already
// formatted as far as fmt is concerned: --check passes on each file named
// alone, on all of them at once and on each layout's directory, and
// --diff prints nothing. Their tabs, aligned columns, blank lines and
// commented-out blocks are what the default layout keeps.
func TestFmtStockLayouts(t *testing.T) {
	byLayout := layoutFiles(t)
	var all []string
	for _, name := range stockLayouts {
		files := byLayout[name]
		if len(files) < 5 {
			t.Errorf("%s: only %d files", name, len(files))
		}
		all = append(all, files...)
		for _, p := range files {
			if code, out, errOut := runCLI(t, "", "fmt", "--check", "--diff", p); code != exitClean || out != "" || errOut != "" {
				t.Errorf("fmt --check --diff %s: exit %d\n%s%s", p, code, out, errOut)
			}
		}
		if code, out, errOut := runCLI(t, "", "fmt", "--check", filepath.Join(testdata("layouts"), name)); code != exitClean {
			t.Errorf("fmt --check on the %s layout: exit %d\n%s%s", name, code, out, errOut)
		}
	}
	// 48 files when this test was written: 7 Alpine, 14 Debian, 6 Docker,
	// 11 Fedora, 10 OpenResty.
	if len(all) < 48 {
		t.Errorf("%d stock files, want at least 48", len(all))
	}
	if code, out, errOut := runCLI(t, "", append([]string{"fmt", "--check"}, all...)...); code != exitClean {
		t.Errorf("fmt --check over all %d files: exit %d\n%s%s", len(all), code, out, errOut)
	}
	// The check can fail: each layout's nginx.conf indented otherwise is
	// reported.
	for _, name := range stockLayouts {
		var conf string
		for _, p := range byLayout[name] {
			if filepath.Base(p) == "nginx.conf" {
				conf = p
			}
		}
		src, err := os.ReadFile(conf)
		if err != nil {
			t.Fatalf("%s: no nginx.conf: %v", name, err)
		}
		indent := "--tabs"
		if strings.Contains(string(src), "\n\t") {
			indent = "--indent=3"
		}
		if code, out, _ := runCLI(t, "", "fmt", "--check", indent, conf); code != exitFindings || strings.TrimSpace(out) != conf {
			t.Errorf("fmt --check %s %s: exit %d %q, want it listed", indent, conf, code, out)
		}
	}
}
