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
	// The files left out are named.
	if want := "nginx-lint: not estimated (no server block): " + filepath.Join(dir, "snippets", "fastcgi-php.conf") + "\n"; errs != want {
		t.Errorf("stderr %q, want %q", errs, want)
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
		!strings.Contains(out, "open files: need 4") || !strings.Contains(out, "have 30: EXCEEDED: nginx cannot start") {
		t.Errorf("--nofile 30: exit %d\n%s", code, out)
	}
	if code, out, _ := runCLI(t, "", "cost", "--nofile", "100", path); code != exitClean || strings.Contains(out, "NL4005") {
		t.Errorf("--nofile 100: exit %d\n%s", code, out)
	}
	big := writeTemp(t, "big.conf", string(layout.Generate(layout.Options{Layout: l, N: 1100})))
	code, out, _ = runCLI(t, "", "cost", big)
	if code != exitClean || !strings.Contains(out, "warning: the master needs 11") ||
		!strings.Contains(out, "have 1024 (assumed") || !strings.Contains(out, "over the assumed limit: nginx cannot start if it is the real one") ||
		strings.Contains(out, "EXCEEDED") {
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
	if code != exitFindings || !strings.Contains(out, "error: the master needs 4") || !strings.Contains(out, "have 30: EXCEEDED: nginx cannot start") {
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

// TestCostExitCodes: cost is a gate like lint. Exit 1 when a finding of
// the cost rules reaches --fail-level (error by default): an estimate
// over --startup-budget, more sockets than --max-sockets, more open files
// than a limit given; an assumed limit exceeded is a warning (1 only
// with --fail-level warning). 2 for an input it cannot read or a report
// it cannot write, 3 for a usage error.
func TestCostExitCodes(t *testing.T) {
	l, _ := layout.ParseName("L1c")
	small := writeTemp(t, "small.conf", string(layout.Generate(layout.Options{Layout: l, N: 40})))
	big := writeTemp(t, "big.conf", string(layout.Generate(layout.Options{Layout: l, N: 1100})))
	for _, tc := range []struct {
		name string
		args []string
		want int
	}{
		{"clean", []string{small}, exitClean},
		{"under the budget", []string{"--startup-budget", "1h", small}, exitClean},
		{"over the budget", []string{"--startup-budget", "1ms", small}, exitFindings},
		{"over --max-sockets", []string{"--max-sockets", "10", small}, exitFindings},
		{"under --max-sockets", []string{"--max-sockets", "100", small}, exitClean},
		{"over --nofile", []string{"--nofile", "30", small}, exitFindings},
		{"over the assumed open files", []string{big}, exitClean},
		{"over the assumed open files, --fail-level warning", []string{"--fail-level", "warning", big}, exitFindings},
		{"over --nofile, --fail-level none", []string{"--fail-level", "none", "--nofile", "30", small}, exitClean},
		{"unreadable", []string{filepath.Join(t.TempDir(), "missing.conf")}, exitError},
		{"bad --fail-level", []string{"--fail-level", "eror", small}, exitUsage},
		{"bad --max-sockets", []string{"--max-sockets", "-1", small}, exitUsage},
	} {
		code, out, errs := runCLI(t, "", append([]string{"cost"}, tc.args...)...)
		if code != tc.want {
			t.Errorf("%s: exit %d, want %d\n%s%s", tc.name, code, tc.want, out, errs)
		}
	}
	code, out, _ := runCLI(t, "", "cost", "--max-sockets", "10", small)
	if code != exitFindings || !strings.Contains(out, "error: 40 listening sockets at start") || !strings.Contains(out, "over max-sockets 10") {
		t.Errorf("--max-sockets: exit %d\n%s", code, out)
	}
	// A report that cannot be written fails, text or JSON, findings or
	// none.
	for _, args := range [][]string{{"cost", small}, {"cost", "--format", "json", small}} {
		var errb strings.Builder
		if code := run(args, strings.NewReader(""), failingWriter{}, &errb); code != exitError || !strings.Contains(errb.String(), "cannot write the report") {
			t.Errorf("%v to a full disk: exit %d, %q", args, code, errb.String())
		}
	}
}

// TestCostProfileSetting: the settings' cost-profile is the model's
// profile (its source is named in the report), relative to the settings
// file; cost --profile wins over it; one that is no profile is a usage
// error with its path, one that cannot be read an error.
func TestCostProfileSetting(t *testing.T) {
	dir := t.TempDir()
	testfiles.Write(t, dir, map[string]string{
		".nginx-lint.yaml":   "cost-profile: profiles/here.json\n",
		"profiles/here.json": `{"source": "this machine, calibrated", "costs": {"server": 0.001}, "measured_servers": [1000, 12000]}`,
		"other.json":         `{"source": "the flag's profile", "costs": {"server": 0.002}}`,
		"nginx.conf":         "events {}\nhttp {\n    server { listen 127.0.0.1:8081; server_name a; }\n    server { listen 127.0.0.1:8082; server_name b; }\n}\n",
	})
	conf := filepath.Join(dir, "nginx.conf")
	code, out, errs := runCLI(t, "", "cost", conf)
	if code != exitClean || !strings.Contains(out, "costs measured on: this machine, calibrated\n") || !strings.Contains(out, "2 ms") {
		t.Errorf("cost-profile: exit %d: %s\n%s", code, errs, out)
	}
	code, out, _ = runCLI(t, "", "cost", "--profile", filepath.Join(dir, "other.json"), conf)
	if code != exitClean || !strings.Contains(out, "costs measured on: the flag's profile\n") {
		t.Errorf("--profile over the setting: exit %d\n%s", code, out)
	}
	// The lint's cost rules read the same profile: the startup budget
	// is judged on it (two servers at 1 s each).
	testfiles.Write(t, dir, map[string]string{"profiles/here.json": `{"source": "slow", "costs": {"server": 1}}`})
	if code, out, errs := runCLI(t, "", "--only", "startup-budget", conf); code != exitClean || !strings.Contains(out, "startup-budget") {
		t.Errorf("lint with the slow profile: exit %d: %s\n%s", code, errs, out)
	}
	testfiles.Write(t, dir, map[string]string{"profiles/here.json": `{"costs": {"no-such-cost": 1}}`})
	if code, _, errs := runCLI(t, "", "cost", conf); code != exitUsage || !strings.Contains(errs, "here.json") {
		t.Errorf("a bad profile: exit %d: %s", code, errs)
	}
	testfiles.Write(t, dir, map[string]string{".nginx-lint.yaml": "cost-profile: missing.json\n"})
	if code, _, errs := runCLI(t, "", "cost", conf); code != exitError || !strings.Contains(errs, "missing.json") {
		t.Errorf("a missing profile: exit %d: %s", code, errs)
	}
}
