package main

import (
	"io/fs"
	"os"
	"os/exec"
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

// TestPreCommitFmtStockLayouts runs the nginx-lint-fmt pre-commit hook
// (this repository's definition, as TestPreCommitHooks runs it, with
// this test binary as nginx-lint) over a repository holding the five
// stock layouts: it must pass, and the files it was given must include
// each layout's nginx.conf.
func TestPreCommitFmtStockLayouts(t *testing.T) {
	preCommit, err := exec.LookPath("pre-commit")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("pre-commit is missing under CI=true (.ci/run installs it)")
		}
		t.Skip("pre-commit is not installed (apt-get install pre-commit)")
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	bin := filepath.Join(root, "bin")
	os.Mkdir(bin, 0o755)
	// The stand-in logs each file it is given, so the test knows the hook
	// saw the stock files.
	seen := filepath.Join(root, "seen.txt")
	script := "#!/bin/sh\nprintf '%s\\n' \"$@\" >> '" + seen + "'\nNGINX_LINT_BE_MAIN=1 exec '" + self + "' \"$@\"\n"
	if err := os.WriteFile(filepath.Join(bin, "nginx-lint"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(),
		"PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"),
		"PRE_COMMIT_HOME="+filepath.Join(root, "cache"),
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com",
		"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com",
		"GIT_CONFIG_NOSYSTEM=1", "HOME="+root, "NO_COLOR=1")
	run := func(dir, name string, args ...string) string {
		t.Helper()
		c := exec.Command(name, args...)
		c.Dir, c.Env = dir, env
		out, err := c.CombinedOutput()
		if err != nil {
			t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	hooksRepo := filepath.Join(root, "hooks")
	os.Mkdir(hooksRepo, 0o755)
	def, err := os.ReadFile(hooksFile)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(hooksRepo, ".pre-commit-hooks.yaml"), []byte(strings.ReplaceAll(string(def), "language: golang", "language: system")), 0o644); err != nil {
		t.Fatal(err)
	}
	run(hooksRepo, "git", "init", "-q")
	run(hooksRepo, "git", "add", ".")
	run(hooksRepo, "git", "commit", "-q", "-m", "hooks")

	repo := filepath.Join(root, "stock")
	if out, err := exec.Command("cp", "-a", testdata("layouts"), repo).CombinedOutput(); err != nil {
		t.Fatalf("cp -a: %v\n%s", err, out)
	}
	run(repo, "git", "init", "-q")
	run(repo, "git", "add", ".")
	out := run(repo, preCommit, "try-repo", hooksRepo, "nginx-lint-fmt", "--all-files")
	if !strings.Contains(out, "Passed") {
		t.Errorf("the fmt hook did not pass:\n%s", out)
	}
	// The lint hook, with the arguments the hook file gives it, passes on
	// every stock file too (run fails the test on a non-zero exit).
	if out := run(repo, preCommit, "try-repo", hooksRepo, "nginx-lint", "--all-files"); !strings.Contains(out, "Passed") {
		t.Errorf("the lint hook did not pass:\n%s", out)
	}
	b, _ := os.ReadFile(seen)
	got := string(b)
	for _, p := range []string{"alpine/etc/nginx/nginx.conf", "debian/etc/nginx/nginx.conf", "debian/etc/nginx/sites-available/default",
		"docker/etc/nginx/conf.d/default.conf", "fedora/etc/nginx/nginx.conf", "openresty/usr/local/openresty/nginx/conf/nginx.conf"} {
		if !strings.Contains(got, p+"\n") {
			t.Errorf("the hook was not given %s; it got:\n%s", p, got)
		}
	}
}
