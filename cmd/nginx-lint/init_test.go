package main

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nginx-lint/nginx-lint/analyzer/config"
)

// fakeNginxV is what Debian 12's nginx -V prints (1.22.1, without the
// http_v2 module's successor http2 directive).
const fakeNginxV = `nginx version: nginx/1.22.1
built with OpenSSL 3.0.22 25 Aug 2026 (running with OpenSSL 3.0.19 27 Jan 2026)
TLS SNI support enabled
configure arguments: --prefix=/usr/share/nginx --conf-path=/etc/nginx/nginx.conf --with-compat --with-http_ssl_module --with-http_stub_status_module --with-http_realip_module --with-http_v2_module --with-threads
`

// fakeNginx writes a script that prints fakeNginxV on standard error, as
// nginx -V does, and returns its path.
func fakeNginx(t *testing.T) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "nginx")
	script := "#!/bin/sh\ncat >&2 <<'EOF'\n" + fakeNginxV + "EOF\n"
	if err := os.WriteFile(p, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// withNginx makes p the nginx installed here for the test.
func withNginx(t *testing.T, p string) {
	old := findNginx
	t.Cleanup(func() { findNginx = old })
	findNginx = func() (string, error) {
		if p == "" {
			return "", errors.New("no nginx")
		}
		return p, nil
	}
}

// TestInitThenLint: in a new repository holding a configuration copied
// from /etc/nginx, init writes settings that map its absolute includes
// and save the local nginx -V; then a plain "nginx-lint" lints the
// directory for that nginx (1.22.1: no http2 directive) and reads the
// include from the checkout.
func TestInitThenLint(t *testing.T) {
	dir := writeConf(t, map[string]string{
		".git/HEAD":       "ref: refs/heads/main\n",
		"nginx.conf":      "events {}\nhttp {\n    include /etc/nginx/mime.types;\n    include /etc/nginx/conf.d/*.conf;\n}\n",
		"mime.types":      "types {\n    text/html html;\n}\n",
		"conf.d/one.conf": "server {\n    listen 127.0.0.1:443 ssl;\n    http2 on;\n    server_name one.example;\n}\n",
	})
	chdir(t, dir)
	withNginx(t, fakeNginx(t))
	code, out, errOut := runCLI(t, "", "init")
	if code != exitClean {
		t.Fatalf("init: exit %d\n%s%s", code, out, errOut)
	}
	for _, want := range []string{"wrote .nginx-lint.yaml for nginx.conf (and 2 files it includes)", "linting for nginx 1.22.1", "next: nginx-lint"} {
		if !strings.Contains(out, want) {
			t.Errorf("init says\n%s\nwithout %q", out, want)
		}
	}
	settings, err := os.ReadFile(".nginx-lint.yaml")
	if err != nil {
		t.Fatal(err)
	}
	f, err := config.Load(".nginx-lint.yaml")
	if err != nil {
		t.Fatalf("the settings init wrote do not load: %v\n%s", err, settings)
	}
	if f.NginxBuild != filepath.Join(dir, "nginx-V.txt") || len(f.IncludePaths) != 1 || f.IncludePaths[0].From != "/etc/nginx" || f.IncludePaths[0].To != dir {
		t.Errorf("settings: nginx-build %q, include-paths %v\n%s", f.NginxBuild, f.IncludePaths, settings)
	}
	if b, _ := os.ReadFile("nginx-V.txt"); string(b) != fakeNginxV {
		t.Errorf("nginx-V.txt holds %q", b)
	}
	if !strings.HasPrefix(string(settings), "# yaml-language-server: $schema="+config.SchemaURL+"\n") {
		t.Errorf("no schema line for editors:\n%s", settings)
	}
	// Then nginx-lint, with no path, lints the directory for 1.22.1.
	code, out, errOut = runCLI(t, "", "--color", "never", "--format", "text")
	if code != exitFindings || !strings.Contains(out, "conf.d/one.conf:3:5: error: unknown directive \"http2\": nginx 1.22.1 predates it") {
		t.Errorf("nginx-lint after init: exit %d\n%s%s", code, out, errOut)
	}
	if strings.Contains(out, "missing-include") || strings.Contains(out, "for the nginx at") {
		t.Errorf("the include was not read from the checkout, or the target is not named:\n%s", out)
	}
	// A second init writes nothing over the first.
	code, _, errOut = runCLI(t, "", "init")
	if code != exitError || !strings.Contains(errOut, ".nginx-lint.yaml exists: not overwritten") {
		t.Errorf("second init: exit %d, %s", code, errOut)
	}
	if b, _ := os.ReadFile(".nginx-lint.yaml"); string(b) != string(settings) {
		t.Error("the second init changed the settings")
	}
}

// TestInitWithoutNginx: with no nginx here the target is left unset (the
// keys are there, commented), and the settings still load.
func TestInitWithoutNginx(t *testing.T) {
	dir := writeConf(t, map[string]string{"site/nginx.conf": "events {}\nhttp {}\n"})
	withNginx(t, "")
	code, out, errOut := runCLI(t, "", "init", filepath.Join(dir, "site"))
	if code != exitClean || !strings.Contains(out, "no nginx here") {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	f, err := config.Load(filepath.Join(dir, "site", ".nginx-lint.yaml"))
	if err != nil || f.NginxBuild != "" || f.NginxVersion != "" {
		t.Errorf("settings: %v, nginx-build %q, nginx-version %q", err, f.NginxBuild, f.NginxVersion)
	}
	if _, err := os.Stat(filepath.Join(dir, "site", "nginx-V.txt")); err == nil {
		t.Error("nginx-V.txt written without an nginx")
	}
}

// TestInitRefuses: a directory without a configuration is a usage error;
// an nginx-V.txt that is not the local nginx's is never overwritten, and
// then no settings are written either.
func TestInitRefuses(t *testing.T) {
	empty := writeConf(t, map[string]string{"README": "nothing here\n"})
	if code, _, errOut := runCLI(t, "", "init", "--no-nginx", empty); code != exitUsage || !strings.Contains(errOut, "no configuration files") {
		t.Errorf("empty directory: exit %d, %s", code, errOut)
	}
	dir := writeConf(t, map[string]string{"nginx.conf": "events {}\n", "nginx-V.txt": "nginx version: nginx/1.18.0\n"})
	code, _, errOut := runCLI(t, "", "init", "--nginx", fakeNginx(t), dir)
	if code != exitError || !strings.Contains(errOut, "nginx-V.txt exists and is not what") {
		t.Errorf("other nginx-V.txt: exit %d, %s", code, errOut)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "nginx-V.txt")); string(b) != "nginx version: nginx/1.18.0\n" {
		t.Errorf("nginx-V.txt changed: %q", b)
	}
	if _, err := os.Stat(filepath.Join(dir, ".nginx-lint.yaml")); err == nil {
		t.Error("settings written although the build could not be saved")
	}
	if code, _, _ := runCLI(t, "", "init", "--nginx", "x", "--no-nginx", dir); code != exitUsage {
		t.Errorf("--nginx with --no-nginx: exit %d", code)
	}
}

// TestSchemaCommand: nginx-lint schema prints the published schema, and
// an output it cannot write fails.
func TestSchemaCommand(t *testing.T) {
	code, out, _ := runCLI(t, "", "schema")
	want, err := os.ReadFile(filepath.Join("..", "..", "docs", "nginx-lint.schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	if code != exitClean || out != string(want) {
		t.Errorf("schema: exit %d, %d bytes, want docs/nginx-lint.schema.json (%d bytes)", code, len(out), len(want))
	}
}
