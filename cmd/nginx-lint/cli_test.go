package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCommandWords covers the first word of the command line: commands,
// help and version as commands, and a misspelt command.
func TestCommandWords(t *testing.T) {
	// "lnit" is one edit from both "init" and "lint": both are named.
	code, _, errs := runCLI(t, "", "lnit", "x.conf")
	if code != exitUsage || strings.TrimSpace(errs) != `nginx-lint: unknown command "lnit", did you mean "init" or "lint"?` {
		t.Errorf("lnit: exit %d, stderr %q", code, errs)
	}
	code, _, errs = runCLI(t, "", "explian", "ssrf")
	if code != exitUsage || !strings.Contains(errs, `did you mean "explain"?`) {
		t.Errorf("explian: exit %d, stderr %q", code, errs)
	}
	// A word far from every command is still a path to lint (exit 2 with
	// the unreadable-file finding), and so is anything shaped like a path.
	for _, p := range []string{"zzzzzz", "lnit.conf", "./lnit"} {
		code, out, _ := runCLI(t, "", p)
		if code != exitError || !strings.Contains(out, "NL1005") {
			t.Errorf("%s: exit %d\n%s", p, code, out)
		}
	}
	// An existing file named like a misspelt command is linted.
	dir := t.TempDir()
	t.Chdir(dir)
	if err := os.WriteFile("lnit", []byte("events {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out, errs := runCLI(t, "", "lnit"); code != exitClean {
		t.Errorf("existing file lnit: exit %d\n%s%s", code, out, errs)
	}

	code, out, _ := runCLI(t, "", "help")
	_, flagOut, _ := runCLI(t, "", "--help")
	if code != exitClean || out != flagOut || !strings.Contains(out, "Commands:") {
		t.Errorf("help: exit %d, differs from --help:\n%s", code, out)
	}
	code, out, _ = runCLI(t, "", "help", "cost")
	_, flagOut, _ = runCLI(t, "", "cost", "--help")
	if code != exitClean || out != flagOut || !strings.Contains(out, "nginx-lint cost <path>") {
		t.Errorf("help cost: exit %d\n%s", code, out)
	}
	code, out, _ = runCLI(t, "", "version")
	_, flagOut, _ = runCLI(t, "", "--version")
	if code != exitClean || out != flagOut || !strings.HasPrefix(out, "nginx-lint ") {
		t.Errorf("version: exit %d, %q, --version %q", code, out, flagOut)
	}
}

// TestRuleNameSuggestions: a rule name that names no rule gets the
// closest ones, wherever it is given.
func TestRuleNameSuggestions(t *testing.T) {
	clean := testdata("cli/clean.conf")
	code, _, errs := runCLI(t, "", "--disable", "ssl-weak", clean)
	if code != exitUsage || !strings.Contains(errs, `--disable: no rule "ssl-weak", did you mean "weak-ssl-tls"?`) {
		t.Errorf("--disable: exit %d, %q", code, errs)
	}
	code, _, errs = runCLI(t, "", "explain", "weak-ssl")
	if code != exitUsage || !strings.Contains(errs, `no rule "weak-ssl", did you mean "weak-ssl-tls"?`) {
		t.Errorf("explain: exit %d, %q", code, errs)
	}
	code, _, errs = runCLI(t, "", "explain", "qqqqqqq")
	if code != exitUsage || strings.Contains(errs, "did you mean") {
		t.Errorf("explain far: exit %d, %q", code, errs)
	}

	dir := t.TempDir()
	t.Chdir(dir)
	conf := filepath.Join(dir, "nginx.conf")
	if err := os.WriteFile(conf, []byte("events {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	settings := func(s string) {
		if err := os.WriteFile(".nginx-lint.yaml", []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	settings("rules:\n  version-disclosure: off\n  ssl-weak: off\n")
	code, _, errs = runCLI(t, "", "nginx.conf")
	if code != exitUsage || strings.TrimSpace(errs) != `nginx-lint: .nginx-lint.yaml:3: rules: no rule "ssl-weak", did you mean "weak-ssl-tls"? (see nginx-lint rules)` {
		t.Errorf("settings rule: exit %d, %q", code, errs)
	}
	settings("prefix: .\n\nrulez: {}\n")
	code, _, errs = runCLI(t, "", "nginx.conf")
	if code != exitUsage || strings.TrimSpace(errs) != `nginx-lint: .nginx-lint.yaml:3: unknown key "rulez", did you mean "rules"?` {
		t.Errorf("settings key: exit %d, %q", code, errs)
	}
}

// TestContextFlag: the help lists the contexts without an empty first
// choice, and a misspelt one gets a suggestion.
func TestContextFlag(t *testing.T) {
	_, out, _ := runCLI(t, "", "lint", "--help")
	i := strings.Index(out, "--context=")
	if i < 0 {
		t.Fatalf("no --context in help:\n%s", out)
	}
	help := strings.Join(strings.Fields(out[i:min(len(out), i+400)]), " ")
	if !strings.Contains(help, "this context: main, http, server, location,") || strings.Contains(help, `""`) || strings.Contains(help, "(,") {
		t.Errorf("--context help: %s", help)
	}
	code, _, errs := runCLI(t, "", "--context", "htp", testdata("cli/clean.conf"))
	if code != exitUsage || !strings.Contains(errs, `unknown context "htp", did you mean "http"?`) {
		t.Errorf("exit %d, %q", code, errs)
	}
	if code, _, errs := runCLI(t, "", "--context", "http", testdata("cli/site.conf")); code != exitClean {
		t.Errorf("--context http: exit %d, %s", code, errs)
	}
}

// TestFmtDirectoryHeaders: several files printed together each get a
// "==> path <==" header; one file prints bare.
func TestFmtDirectoryHeaders(t *testing.T) {
	dir := t.TempDir()
	for name, src := range map[string]string{"a.conf": "events{}\n", "b.conf": "http{}\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	code, out, _ := runCLI(t, "", "fmt", dir)
	a, b := filepath.Join(dir, "a.conf"), filepath.Join(dir, "b.conf")
	want := "==> " + a + " <==\nevents {}\n\n==> " + b + " <==\nhttp {}\n"
	if code != exitClean || out != want {
		t.Errorf("exit %d\ngot:\n%s\nwant:\n%s", code, out, want)
	}
	if _, out, _ := runCLI(t, "", "fmt", a); out != "events {}\n" {
		t.Errorf("one file: %q", out)
	}
}
