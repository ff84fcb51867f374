package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nginx-lint/nginx-lint/internal/testfiles"

	"github.com/nginx-lint/nginx-lint/analyzer/costmodel/layout"
)

// TestCostPlurals: one of a thing is singular.
func TestCostPlurals(t *testing.T) {
	path := writeTemp(t, "nginx.conf", "events {}\nhttp {\n    server { listen 127.0.0.1:8080; server_name a b; }\n}\n")
	_, out, _ := runCLI(t, "", "cost", path)
	if !strings.Contains(out, path+": 1 server, 1 listen on 1 port and 1 address\n") {
		t.Errorf("header:\n%s", out)
	}
	for _, bad := range []string{"1 servers", "1 ports", "1 listens", "1 addresss", "1 addresses", "1 operations", "1 names"} {
		if strings.Contains(out, bad) {
			t.Errorf("%q in\n%s", bad, out)
		}
	}
}

// TestCostDirectory: a directory is costed like lint reads it: each
// configuration that no other includes, once; snippets without servers
// are left out; JSON is a list.
func TestCostDirectory(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"nginx.conf":                "events {}\nhttp {\n    include sites-enabled/*;\n}\n",
		"sites-enabled/a":           "server { listen 127.0.0.1:8081; server_name a; }\n",
		"sites-enabled/b":           "server { listen 127.0.0.1:8082; server_name b; }\n",
		"snippets/fastcgi-php.conf": "fastcgi_index index.php;\n",
		"other/nginx.conf":          "events {}\nhttp {\n    server { listen 127.0.0.1:8083; }\n}\n",
	}
	testfiles.Write(t, dir, files)
	code, out, errs := runCLI(t, "", "cost", dir)
	if code != exitClean {
		t.Fatalf("exit %d: %s\n%s", code, errs, out)
	}
	main, other := filepath.Join(dir, "nginx.conf"), filepath.Join(dir, "other", "nginx.conf")
	for _, want := range []string{main + ": 2 servers, 2 listens on 2 ports and 2 addresses", other + ": 1 server,"} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
	if n := strings.Count(out, "costs measured on:"); n != 2 {
		t.Errorf("%d reports, want 2 (the sites are part of nginx.conf):\n%s", n, out)
	}
	if !strings.Contains(errs, "1 file without server blocks not estimated") {
		t.Errorf("stderr %q", errs)
	}
	_, out, _ = runCLI(t, "", "cost", "--format", "json", dir)
	var list []struct {
		File    string `json:"file"`
		Servers int    `json:"servers"`
	}
	if err := json.Unmarshal([]byte(out), &list); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if len(list) != 2 || list[0].File != main || list[0].Servers != 2 || list[1].File != other {
		t.Errorf("json %+v", list)
	}
	// A file gives one object, as before.
	_, out, _ = runCLI(t, "", "cost", "--format", "json", other)
	var one struct{ File string }
	if err := json.Unmarshal([]byte(out), &one); err != nil || one.File != other {
		t.Errorf("file: %v %+v", err, one)
	}
	// A directory with nothing to cost is a usage error, as for lint.
	empty := t.TempDir()
	if code, _, _ := runCLI(t, "", "cost", empty); code != exitUsage {
		t.Errorf("empty directory: exit %d", code)
	}
}

// TestCostOpenFiles: needing more open files than a limit the user gave
// means nginx cannot start: an error, exit 1. Against the assumed
// default it is a warning, and the report says the limit is assumed.
func TestCostOpenFiles(t *testing.T) {
	l, _ := layout.ParseName("L1c")
	path := writeTemp(t, "nginx.conf", string(layout.Generate(layout.Options{Layout: l, N: 40})))
	code, out, _ := runCLI(t, "", "cost", "--nofile", "30", path)
	if code != exitFindings || !strings.Contains(out, "error: the master needs 4") || !strings.Contains(out, "[NL4005 open-files-limit]") ||
		!strings.Contains(out, "open files: need 4") || !strings.Contains(out, "have 30: EXCEEDED") {
		t.Errorf("--nofile 30: exit %d\n%s", code, out)
	}
	if code, out, _ := runCLI(t, "", "cost", "--nofile", "100", path); code != exitClean || strings.Contains(out, "NL4005") {
		t.Errorf("--nofile 100: exit %d\n%s", code, out)
	}
	big := writeTemp(t, "big.conf", string(layout.Generate(layout.Options{Layout: l, N: 1100})))
	code, out, _ = runCLI(t, "", "cost", big)
	if code != exitClean || !strings.Contains(out, "warning: the master needs 11") ||
		!strings.Contains(out, "have 1024 (assumed") {
		t.Errorf("assumed limit: exit %d\n%s", code, out)
	}
}

// TestCostSettings: cost reads a configuration as lint does, with the
// .nginx-lint.yaml found upward: include-paths map the absolute includes
// to the checkout (the servers are counted, no "cannot open"), and the
// cost rules' host options are the model's, under the flags.
func TestCostSettings(t *testing.T) {
	dir := t.TempDir()
	l, _ := layout.ParseName("L1c")
	files := map[string]string{
		".nginx-lint.yaml": "include-paths:\n  /etc/nginx/: ./\nrules:\n  open-files-limit:\n    options: {nofile: 30}\n",
		"nginx.conf":       "events {}\nhttp {\n    include /etc/nginx/sites/*.conf;\n}\n",
		"sites/a.conf":     "server { listen 127.0.0.1:8081; server_name a; }\n",
		"sites/b.conf":     "server { listen 127.0.0.1:8082; server_name b; }\n",
		"big/nginx.conf":   string(layout.Generate(layout.Options{Layout: l, N: 40})),
	}
	testfiles.Write(t, dir, files)
	main := filepath.Join(dir, "nginx.conf")
	code, out, errs := runCLI(t, "", "cost", main)
	if code != exitClean || !strings.Contains(out, main+": 2 servers, 2 listens on 2 ports and 2 addresses") ||
		strings.Contains(out, "NL1003") || !strings.Contains(out, "have 30: ok") {
		t.Errorf("include-paths: exit %d: %s\n%s", code, errs, out)
	}
	// lint agrees on the same file: the include is found.
	if code, out, errs := runCLI(t, "", main); code != exitClean {
		t.Errorf("lint: exit %d: %s\n%s", code, errs, out)
	}
	// The settings' nofile is a limit given: exceeding it is an error.
	big := filepath.Join(dir, "big", "nginx.conf")
	code, out, _ = runCLI(t, "", "cost", big)
	if code != exitFindings || !strings.Contains(out, "error: the master needs 4") || !strings.Contains(out, "have 30: EXCEEDED") {
		t.Errorf("settings nofile 30: exit %d\n%s", code, out)
	}
	// The flag wins over the settings.
	if code, out, _ := runCLI(t, "", "cost", "--nofile", "100", big); code != exitClean || strings.Contains(out, "NL4005") {
		t.Errorf("--nofile 100 over the settings: exit %d\n%s", code, out)
	}
}

// TestCostSettingsFlags: cost takes lint's --config, --no-config and
// --nginx-build, with lint's exit codes for their mistakes.
func TestCostSettingsFlags(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		".nginx-lint.yaml": "include-paths:\n  /etc/nginx/: ./\nrules:\n  open-files-limit:\n    options: {nofile: 30}\n",
		"alt.yaml":         "include-paths:\n  /etc/nginx/: ./\nrules:\n  open-files-limit:\n    options: {nofile: 100}\n",
		"broken.yaml":      "rules: [\n",
		"nginx-V.txt":      "nginx version: nginx/1.22.1\nconfigure arguments: --with-http_ssl_module\n",
		"nginx.conf":       "events {}\nhttp {\n    include /etc/nginx/sites/*.conf;\n}\n",
		"sites/a.conf":     "server { listen 127.0.0.1:8081; server_name a; }\n",
	}
	testfiles.Write(t, dir, files)
	main := filepath.Join(dir, "nginx.conf")
	if code, out, errs := runCLI(t, "", "cost", "--config", filepath.Join(dir, "alt.yaml"), main); code != exitClean ||
		!strings.Contains(out, "have 100: ok") || !strings.Contains(out, ": 1 server,") {
		t.Errorf("--config: exit %d: %s\n%s", code, errs, out)
	}
	// Without settings the settings' nofile is gone; the absolute include
	// is still read from the checkout, which its nginx.conf shows to be a
	// copy of /etc/nginx (sites/ lies beside it).
	if code, out, errs := runCLI(t, "", "cost", "--no-config", main); code != exitClean ||
		strings.Contains(out, "have 30") || !strings.Contains(out, ": 1 server,") {
		t.Errorf("--no-config: exit %d: %s\n%s", code, errs, out)
	}
	if code, _, errs := runCLI(t, "", "cost", "--config", filepath.Join(dir, "alt.yaml"), "--no-config", main); code != exitUsage {
		t.Errorf("--config with --no-config: exit %d: %s", code, errs)
	}
	if code, _, errs := runCLI(t, "", "cost", "--config", filepath.Join(dir, "broken.yaml"), main); code != exitUsage {
		t.Errorf("broken --config: exit %d: %s", code, errs)
	}
	if code, out, errs := runCLI(t, "", "cost", "--nginx-build", filepath.Join(dir, "nginx-V.txt"), main); code != exitClean ||
		!strings.Contains(out, "have 30: ok") {
		t.Errorf("--nginx-build: exit %d: %s\n%s", code, errs, out)
	}
	if code, _, errs := runCLI(t, "", "cost", "--nginx-build", filepath.Join(dir, "missing.txt"), main); code != exitError {
		t.Errorf("missing --nginx-build: exit %d: %s", code, errs)
	}
}
