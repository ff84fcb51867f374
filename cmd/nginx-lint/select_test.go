package main

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// threeRules is a configuration with one finding each of
// version-disclosure, autoindex-enabled and unknown-directive.
const threeRules = `events {}
http {
    server_tokens on;
    server {
        listen 127.0.0.1:8080;
        autoindex on;
        server_nmae x;
    }
}
`

// foundRules lists the rule names of the text output's finding lines, in
// order.
func foundRules(out string) []string {
	var names []string
	for _, m := range findingLine.FindAllStringSubmatch(out, -1) {
		names = append(names, m[1])
	}
	return names
}

var findingLine = regexp.MustCompile(`(?m) \[NL\d{4} ([a-z0-9-]+)\]$`)

// TestOnly: --only runs the rules it names (by name or code, comma-
// separated or repeated) and no other, even over settings that disable
// them; --disable applies after it; the syntax findings stay on; an
// unknown name is a usage error with suggestions.
func TestOnly(t *testing.T) {
	dir := t.TempDir()
	conf := filepath.Join(dir, "nginx.conf")
	if err := os.WriteFile(conf, []byte(threeRules), 0o644); err != nil {
		t.Fatal(err)
	}
	settings := filepath.Join(dir, "settings.yaml")
	if err := os.WriteFile(settings, []byte("rules:\n  autoindex-enabled: off\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	all := []string{"version-disclosure", "autoindex-enabled", "unknown-directive"}
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{nil, all},
		{[]string{"--only", "autoindex-enabled"}, []string{"autoindex-enabled"}},
		{[]string{"--only", "NL3021,unknown-directive"}, []string{"autoindex-enabled", "unknown-directive"}},
		{[]string{"--only", "NL3021", "--only", "NL3009"}, []string{"version-disclosure", "autoindex-enabled"}},
		{[]string{"--only", "NL3021,NL3009", "--disable", "version-disclosure"}, []string{"autoindex-enabled"}},
		{[]string{"--only", "NL3021", "--disable", "NL3021"}, nil},
		// The settings turn autoindex-enabled off; --only names it.
		{[]string{"--config", settings}, []string{"version-disclosure", "unknown-directive"}},
		{[]string{"--config", settings, "--only", "autoindex-enabled"}, []string{"autoindex-enabled"}},
	} {
		args := append(append([]string{"-q"}, tc.args...), conf)
		_, out, errs := runCLI(t, "", args...)
		if got := foundRules(out); !slices.Equal(got, tc.want) {
			t.Errorf("%v: rules %v, want %v\n%s%s", tc.args, got, tc.want, out, errs)
		}
	}

	// A syntax error is reported whatever --only says.
	broken := filepath.Join(dir, "broken.conf")
	if err := os.WriteFile(broken, []byte("events {}\nhttp {\n    autoindex on\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, _ := runCLI(t, "", "-q", "--only", "version-disclosure", broken)
	if code != exitFindings || !slices.Equal(foundRules(out), []string{"syntax-error"}) {
		t.Errorf("--only on a broken file: exit %d\n%s", code, out)
	}

	code, _, errs := runCLI(t, "", "--only", "autoindex-enabld", conf)
	if code != exitUsage || !strings.Contains(errs, `--only: no rule "autoindex-enabld", did you mean "autoindex-enabled"?`) {
		t.Errorf("unknown --only: exit %d, stderr %q", code, errs)
	}
}

// TestQuiet: -q prints the finding lines alone, in every other respect
// the same run (exit code, order); without findings it prints nothing.
func TestQuiet(t *testing.T) {
	dir := t.TempDir()
	conf := filepath.Join(dir, "nginx.conf")
	if err := os.WriteFile(conf, []byte(threeRules), 0o644); err != nil {
		t.Fatal(err)
	}
	code, full, _ := runCLI(t, "", "--fail-level", "warning", conf)
	qcode, quiet, _ := runCLI(t, "", "--fail-level", "warning", "--quiet", conf)
	if code != exitFindings || qcode != code {
		t.Errorf("exit %d, with --quiet %d", code, qcode)
	}
	lines := strings.Split(strings.TrimSuffix(quiet, "\n"), "\n")
	if len(lines) != 3 || !strings.Contains(full, "1 error, 2 warnings") || strings.Contains(quiet, "warnings") {
		t.Fatalf("quiet output:\n%s\nfull output:\n%s", quiet, full)
	}
	for _, l := range lines {
		if !strings.HasPrefix(l, conf+":") || !strings.Contains(full, l+"\n") {
			t.Errorf("quiet line %q is not a finding line of the full output", l)
		}
	}
	if _, out, _ := runCLI(t, "", "-q", testdata("cli/clean.conf")); out != "" {
		t.Errorf("clean file with -q printed %q", out)
	}

	// --fix -q: the fixed file, without the "fixed" lines on stderr.
	fixable := filepath.Join(dir, "fix.conf")
	src := "events {}\nhttp {\n    server {\n        listen 127.0.0.1:8080;\n        ssl_protocols TLSv1 TLSv1.2;\n    }\n}\n"
	for _, quiet := range []bool{false, true} {
		if err := os.WriteFile(fixable, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		args := []string{"--fix", fixable}
		if quiet {
			args = append([]string{"-q"}, args...)
		}
		_, _, errs := runCLI(t, "", args...)
		b, _ := os.ReadFile(fixable)
		if string(b) == src {
			t.Fatalf("--fix changed nothing in %q: pick another fixable finding", src)
		}
		if got := strings.Contains(errs, "fixed "); got == quiet {
			t.Errorf("--fix quiet=%v: stderr %q", quiet, errs)
		}
	}
}
