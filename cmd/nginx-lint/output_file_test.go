package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOutputFiles: --output FORMAT=FILE writes the same report --format
// FORMAT prints, beside what --format prints on stdout, on exit 0, 1
// and 2; never on a usage error; never a file cut short or empty.
func TestOutputFiles(t *testing.T) {
	dir := writeConf(t, map[string]string{
		"clean.conf":  "events {}\n",
		"broken.conf": "events {}\nhttp {\n    server_nmae x;\n    root /srv\n}\n",
	})
	chdir(t, dir)
	sarif, jsonFile, text := filepath.Join(dir, "out.sarif"), filepath.Join(dir, "out.json"), filepath.Join(dir, "out.txt")
	reset := func() {
		for _, f := range []string{sarif, jsonFile, text} {
			os.Remove(f)
		}
	}
	read := func(p string) string {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}

	for _, conf := range []string{"clean.conf", "broken.conf", "missing.conf"} {
		reset()
		t.Setenv("FORCE_COLOR", "1") // a file is never colored
		code, out, errs := runCLI(t, "", "--format", "github", "--output", "sarif="+sarif, "--output", "json=out.json", "--output", "text="+text, conf)
		_, wantSARIF, _ := runCLI(t, "", "--format", "sarif", conf)
		_, wantJSON, _ := runCLI(t, "", "--format", "json", conf)
		_, wantText, _ := runCLI(t, "", "--format", "text", "--color", "never", conf)
		_, wantGitHub, _ := runCLI(t, "", "--format", "github", conf)
		wantCode := map[string]int{"clean.conf": exitClean, "broken.conf": exitFindings, "missing.conf": exitError}[conf]
		if code != wantCode || errs != "" {
			t.Errorf("%s: exit %d, want %d; stderr %q", conf, code, wantCode, errs)
		}
		if out != wantGitHub {
			t.Errorf("%s: stdout is not the github format:\n%s", conf, out)
		}
		if got := read(sarif); got != wantSARIF {
			t.Errorf("%s: the SARIF file differs from --format sarif", conf)
		}
		if got := read(jsonFile); got != wantJSON {
			t.Errorf("%s: the JSON file differs from --format json:\n%s", conf, got)
		}
		if got := read(text); got != wantText || strings.Contains(got, "\x1b[") {
			t.Errorf("%s: the text file:\n%q\nwant\n%q", conf, got, wantText)
		}
		if conf != "clean.conf" && !strings.Contains(out, "::error ") {
			t.Errorf("%s: no error annotation:\n%s", conf, out)
		}
	}
	t.Setenv("FORCE_COLOR", "")

	// Usage errors write nothing, and leave an existing file alone.
	for _, args := range [][]string{
		{"--output", "sarif"},
		{"--output", "sarf=" + sarif},
		{"--output", "=" + sarif},
		{"--output", "sarif=" + sarif, "--output", "json=" + sarif},
		{"--output", "sarif=" + sarif, "--write-baseline", filepath.Join(dir, "base.json")},
		{"--output", "sarif=" + sarif, "--diff"},
		{"--output", "sarif=" + sarif, "--disable", "no-such-rule"},
		{"--output", "sarif=" + sarif, "--fail-level", "fatal"},
	} {
		reset()
		code, _, errs := runCLI(t, "", append(args, "broken.conf")...)
		if code != exitUsage {
			t.Errorf("%v: exit %d, want 3 (%s)", args, code, errs)
		}
		if _, err := os.Stat(sarif); err == nil {
			t.Errorf("%v: a SARIF file was written", args)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "base.json")); err == nil {
		t.Error("--write-baseline ran beside a refused --output")
	}

	// A file that cannot be written is exit 2, with the report on stdout.
	code, out, errs := runCLI(t, "", "--output", "sarif="+filepath.Join(dir, "no", "such", "dir", "x.sarif"), "broken.conf")
	if code != exitError || !strings.Contains(errs, "--output no/such/dir/x.sarif") || !strings.Contains(out, "server_nmae") {
		t.Errorf("unwritable --output: exit %d, stderr %q", code, errs)
	}
}
