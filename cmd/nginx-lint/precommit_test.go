package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// hooksFile is the repository's pre-commit hook definition, found before
// a test changes directory.
var hooksFile, _ = filepath.Abs(filepath.Join("..", "..", ".pre-commit-hooks.yaml"))

type hook struct {
	ID    string `yaml:"id"`
	Entry string `yaml:"entry"`
	Files string `yaml:"files"`
}

func readHooks(t *testing.T) []hook {
	t.Helper()
	b, err := os.ReadFile(hooksFile)
	if err != nil {
		t.Fatal(err)
	}
	var hooks []hook
	if err := yaml.Unmarshal(b, &hooks); err != nil {
		t.Fatal(err)
	}
	return hooks
}

// TestPreCommitFiles checks which paths the hooks' files pattern takes
// (pre-commit searches it with Python's re, whose syntax this pattern
// shares with Go's).
func TestPreCommitFiles(t *testing.T) {
	hooks := readHooks(t)
	ids := map[string]bool{}
	for _, h := range hooks {
		ids[h.ID] = true
		re, err := regexp.Compile(h.Files)
		if err != nil {
			t.Fatalf("%s: %v", h.ID, err)
		}
		for path, want := range map[string]bool{
			"etc/nginx/sites-enabled/default":   true,
			"sites-available/example.com":       true,
			"conf.d/upstreams":                  true,
			"nginx/conf.d/gzip.conf":            true,
			"app.nginx":                         true,
			"nginx.conf":                        true,
			"deploy/nginx.conf.template":        true,
			"snippets/ssl.conf":                 true,
			"README.md":                         false,
			"mime.types":                        false,
			"conf.d/sub/dir/x":                  false,
			"docs/sites-enabled.md":             false,
			"not-nginx.conf.d/readme":           false,
			"sites-available/../secrets/x.json": false,
		} {
			if re.MatchString(path) != want {
				t.Errorf("%s: files matches %q: %v, want %v", h.ID, path, !want, want)
			}
		}
	}
	if !ids["nginx-lint"] || !ids["nginx-lint-fmt"] {
		t.Errorf("hook ids %v, want nginx-lint and nginx-lint-fmt", ids)
	}
}

// TestPreCommitHooks runs Debian's pre-commit with this repository's
// hooks on a sample repository: a commit with a syntax error or an
// unformatted file is blocked, a clean one goes through. The hooks are
// run as language "system" with this test binary standing in for
// nginx-lint: "golang" would make pre-commit build the module from the
// network, which says nothing about the hooks themselves.
func TestPreCommitHooks(t *testing.T) {
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
	script := "#!/bin/sh\nNGINX_LINT_BE_MAIN=1 exec '" + self + "' \"$@\"\n"
	if err := os.WriteFile(filepath.Join(bin, "nginx-lint"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(),
		"PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"),
		"PRE_COMMIT_HOME="+filepath.Join(root, "cache"),
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com",
		"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com",
		"GIT_CONFIG_NOSYSTEM=1", "HOME="+root, "NO_COLOR=1")
	cmd := func(dir string, name string, args ...string) (string, error) {
		t.Helper()
		c := exec.Command(name, args...)
		c.Dir, c.Env = dir, env
		out, err := c.CombinedOutput()
		return string(out), err
	}
	must := func(dir string, name string, args ...string) string {
		t.Helper()
		out, err := cmd(dir, name, args...)
		if err != nil {
			t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
		}
		return out
	}

	// The hook repository: our definition, run as "system".
	hooksRepo := filepath.Join(root, "hooks")
	os.Mkdir(hooksRepo, 0o755)
	def, err := os.ReadFile(hooksFile)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(def), "language: golang"); n != 2 {
		t.Fatalf("expected two golang hooks, found %d", n)
	}
	if err := os.WriteFile(filepath.Join(hooksRepo, ".pre-commit-hooks.yaml"), []byte(strings.ReplaceAll(string(def), "language: golang", "language: system")), 0o644); err != nil {
		t.Fatal(err)
	}
	must(hooksRepo, "git", "init", "-q")
	must(hooksRepo, "git", "add", ".")
	must(hooksRepo, "git", "commit", "-q", "-m", "hooks")
	rev := strings.TrimSpace(must(hooksRepo, "git", "rev-parse", "HEAD"))

	// The sample repository: Debian's layout, formatted and clean.
	repo := filepath.Join(root, "site")
	good := "server {\n    listen 127.0.0.1:8080;\n    server_name example.com;\n    root /srv/www;\n}\n"
	files := map[string]string{
		".pre-commit-config.yaml": "repos:\n- repo: " + hooksRepo + "\n  rev: " + rev + "\n  hooks:\n  - id: nginx-lint\n  - id: nginx-lint-fmt\n",
		"nginx.conf":              "events {}\nhttp {\n    server_tokens off;\n    include conf.d/*.conf;\n    include sites-enabled/*;\n}\n",
		"conf.d/gzip.conf":        "gzip on;\n",
		"sites-available/example": good,
		"notes/README.md":         "not { an nginx file\n",
	}
	for name, text := range files {
		p := filepath.Join(repo, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	os.MkdirAll(filepath.Join(repo, "sites-enabled"), 0o755)
	if err := os.Symlink("../sites-available/example", filepath.Join(repo, "sites-enabled", "example")); err != nil {
		t.Fatal(err)
	}
	must(repo, "git", "init", "-q")
	must(repo, "git", "add", ".")
	if out, err := cmd(repo, preCommit, "try-repo", hooksRepo, "--all-files"); err != nil {
		t.Fatalf("try-repo on the clean repository fails: %v\n%s", err, out)
	}
	must(repo, preCommit, "install")
	must(repo, "git", "commit", "-q", "-m", "clean")
	head := strings.TrimSpace(must(repo, "git", "rev-parse", "HEAD"))

	blocked := func(what, path, text, want string) {
		t.Helper()
		p := filepath.Join(repo, path)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		must(repo, "git", "add", path)
		out, err := cmd(repo, preCommit, "try-repo", hooksRepo)
		if err == nil || !strings.Contains(out, want) {
			t.Errorf("%s: try-repo passes or does not say %q: %v\n%s", what, want, err, out)
		}
		out, err = cmd(repo, "git", "commit", "-q", "-m", what)
		if err == nil || !strings.Contains(out, want) {
			t.Errorf("%s: the commit was not blocked (%v):\n%s", what, err, out)
		}
		if h := strings.TrimSpace(must(repo, "git", "rev-parse", "HEAD")); h != head {
			t.Errorf("%s: HEAD moved to %s", what, h)
		}
		must(repo, "git", "checkout", "-q", "HEAD", "--", path)
	}
	// A missing ";" in a site file without an extension.
	blocked("syntax error", "sites-available/example", strings.Replace(good, "root /srv/www;", "root /srv/www", 1),
		"sites-available/example:5:1: error")
	// A typo nginx refuses (a near miss of server_name) is an error.
	blocked("typo", "sites-available/example", strings.Replace(good, "server_name", "server_nmae", 1),
		`sites-available/example:3:5: error: unknown directive "server_nmae"`)
	// A directive no module defines: every stock nginx refuses it, and
	// the hook blocks it as the command line's default does.
	blocked("unknown directive", "sites-available/example", strings.Replace(good, "root /srv/www;", "root /srv/www;\n    frobnicate on;", 1),
		`sites-available/example:5:5: error: unknown directive "frobnicate"`)
	// A valid but unformatted conf.d file: only the fmt hook objects.
	blocked("unformatted", "conf.d/gzip.conf", "gzip on; gzip_vary on;\n", "conf.d/gzip.conf")

	// A clean change goes through; a file the hooks do not take is not
	// passed to them.
	os.WriteFile(filepath.Join(repo, "conf.d", "gzip.conf"), []byte("gzip on;\ngzip_comp_level 5;\n"), 0o644)
	os.WriteFile(filepath.Join(repo, "notes", "README.md"), []byte("still { not nginx\n"), 0o644)
	must(repo, "git", "add", ".")
	if out, err := cmd(repo, "git", "commit", "-q", "-m", "good"); err != nil {
		t.Errorf("a clean commit was blocked: %v\n%s", err, out)
	}
	// A warning does not block, and the passing hook shows it.
	os.WriteFile(filepath.Join(repo, "conf.d", "tls.conf"), []byte("ssl_protocols TLSv1 TLSv1.2;\n"), 0o644)
	must(repo, "git", "add", ".")
	out, err := cmd(repo, "git", "commit", "-m", "a warning")
	if err != nil || !strings.Contains(out, `conf.d/tls.conf:1:1: warning: "ssl_protocols" enables obsolete TLSv1`) {
		t.Errorf("a commit with a warning: blocked (%v) or the warning is not shown:\n%s", err, out)
	}
}
