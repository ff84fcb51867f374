package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nginx-lint/nginx-lint/analyzer/directives"
)

const fixConf = `events {}
http {
    server_tokens on;
    include site.conf;
}
`

const fixSite = `server {
    listen 127.0.0.1:8080;
    locaton / { return 204; }
    # nginx-lint ignore=weak-ssl-tls kept on purpose for an old client
    ssl_protocols TLSv1 TLSv1.2;
}
`

func TestFixDiffChangesNothing(t *testing.T) {
	dir := writeConf(t, map[string]string{"nginx.conf": fixConf, "site.conf": fixSite})
	main := filepath.Join(dir, "nginx.conf")
	code, out, errOut := runCLI(t, "", "--diff", main)
	if code != exitFindings {
		t.Fatalf("exit %d, want %d\n%s%s", code, exitFindings, out, errOut)
	}
	for _, want := range []string{"-    server_tokens on;", "+    server_tokens off;", "-    locaton / { return 204; }", "+    location / { return 204; }", "+++ " + filepath.Join(dir, "site.conf") + "\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("diff lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "TLSv1 TLSv1.2") && strings.Contains(out, "+    ssl_protocols") {
		t.Errorf("a suppressed finding was fixed:\n%s", out)
	}
	if b, _ := os.ReadFile(main); string(b) != fixConf {
		t.Errorf("--diff wrote the file")
	}
}

func TestFixWritesAndReports(t *testing.T) {
	dir := writeConf(t, map[string]string{"nginx.conf": fixConf, "site.conf": fixSite})
	main := filepath.Join(dir, "nginx.conf")
	if err := os.Chmod(filepath.Join(dir, "site.conf"), 0o640); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCLI(t, "", "--fix", "--color", "never", main)
	if code != exitClean {
		t.Fatalf("exit %d, want %d after fixing\nstdout:\n%s\nstderr:\n%s", code, exitClean, out, errOut)
	}
	if !strings.Contains(errOut, "fixed ") || !strings.Contains(errOut, "(unknown-directive)") || !strings.Contains(errOut, "(version-disclosure)") {
		t.Errorf("stderr does not list the fixes:\n%s", errOut)
	}
	b, _ := os.ReadFile(main)
	if !strings.Contains(string(b), "server_tokens off;") {
		t.Errorf("nginx.conf not fixed:\n%s", b)
	}
	site := filepath.Join(dir, "site.conf")
	b, _ = os.ReadFile(site)
	if !strings.Contains(string(b), "location / {") || !strings.Contains(string(b), "TLSv1 TLSv1.2") {
		t.Errorf("site.conf: the included file is fixed, the suppressed line kept:\n%s", b)
	}
	if st, _ := os.Stat(site); st.Mode().Perm() != 0o640 {
		t.Errorf("mode %v, want 0640", st.Mode().Perm())
	}

	// Nothing is left to fix: a second run writes nothing.
	st1, _ := os.Stat(site)
	code, out, errOut = runCLI(t, "", "--fix", main)
	if code != exitClean || strings.Contains(errOut, "fixed ") {
		t.Errorf("second --fix: exit %d\n%s%s", code, out, errOut)
	}
	if st2, _ := os.Stat(site); !st2.ModTime().Equal(st1.ModTime()) {
		t.Errorf("second --fix rewrote site.conf")
	}
}

func TestFixLeavesWhatHasNoFix(t *testing.T) {
	dir := writeConf(t, map[string]string{"nginx.conf": "events {}\nhttp {\n    server_tokens off;\n    server {\n        listen 127.0.0.1:80;\n        listen 127.0.0.1:80;\n    }\n}\n"})
	code, _, errOut := runCLI(t, "", "--fix", filepath.Join(dir, "nginx.conf"))
	if code != exitFindings {
		t.Errorf("exit %d, want %d: the duplicate listen has no fix and is still reported\n%s", code, exitFindings, errOut)
	}
}

// TestFixStdin: --fix - prints the fixed text of standard input on
// standard output, as a formatter in a pipeline does, and what remains on
// standard error; --diff - prints the diff; nothing is written to disk.
func TestFixStdin(t *testing.T) {
	dir := writeConf(t, map[string]string{})
	chdir(t, dir)
	code, out, errOut := runCLI(t, "events {}\nhttp {\n    server {\n        listen 127.0.0.1:80;\n        server_nmae a;\n    }\n}\n", "--fix", "-")
	want := "events {}\nhttp {\n    server {\n        listen 127.0.0.1:80;\n        server_name a;\n    }\n}\n"
	if code != exitClean || out != want {
		t.Errorf("--fix -: exit %d, stdout\n%s\nwant\n%s\nstderr:\n%s", code, out, want, errOut)
	}
	if !strings.Contains(errOut, `fixed <stdin>:5: unknown directive "server_nmae"`) {
		t.Errorf("--fix -: stderr does not say what was fixed:\n%s", errOut)
	}
	// A fragment, as an editor's selection or a snippet file would be.
	if code, out, _ := runCLI(t, "server_nmae a;", "--fix", "-"); code != exitClean || out != "server_name a;" {
		t.Errorf("fragment: exit %d, %q", code, out)
	}
	// What has no fix stays, on standard error; the exit code follows
	// --fail-level as a lint's does.
	code, out, errOut = runCLI(t, "server_nmae a;\ngzip maybe;\n", "--fix", "-", "-q")
	if code != exitFindings || out != "server_name a;\ngzip maybe;\n" || !strings.Contains(errOut, "<stdin>:2:6: error: invalid value") {
		t.Errorf("remaining finding: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	// A text with nothing to fix comes back unchanged.
	if code, out, _ := runCLI(t, "events {}\n", "--fix", "-"); code != exitClean || out != "events {}\n" {
		t.Errorf("nothing to fix: exit %d, %q", code, out)
	}
	code, out, _ = runCLI(t, "server_nmae a;\n", "--diff", "-")
	if code != exitFindings || !strings.Contains(out, "-server_nmae a;\n+server_name a;\n") {
		t.Errorf("--diff -: exit %d\n%s", code, out)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("--fix - wrote %d files in the working directory", len(entries))
	}
	// Standard input goes alone.
	if code, _, errOut := runCLI(t, "server_nmae a;\n", "--fix", "-", testdata("cli/clean.conf")); code != exitUsage {
		t.Errorf("--fix - with a file: exit %d, %s", code, errOut)
	}
}

func TestRuleOptionSettings(t *testing.T) {
	dir := writeConf(t, map[string]string{
		"nginx.conf":          "events {}\nhttp {\n    server_tokens off;\n}\n",
		".nginx-lint.yaml":    "rules:\n  listen-socket-count:\n    options: {max-socket: 1}\n",
		"ok/nginx.conf":       "events {}\nhttp {\n    server_tokens off;\n}\n",
		"ok/.nginx-lint.yaml": "rules:\n  origins:\n    options:\n      https_only: true\n",
	})
	code, _, errOut := runCLI(t, "", filepath.Join(dir, "nginx.conf"))
	if code != exitUsage || !strings.Contains(errOut, ".nginx-lint.yaml:3: rule \"listen-socket-count\" has no option \"max-socket\", did you mean \"max-sockets\"?") {
		t.Errorf("unknown option: exit %d\n%s", code, errOut)
	}
	code, _, errOut = runCLI(t, "", filepath.Join(dir, "ok", "nginx.conf"))
	if code != exitClean || strings.Count(errOut, `option "https_only" is deprecated, write "https-only"`) != 1 {
		t.Errorf("deprecated option: exit %d\n%s", code, errOut)
	}
}

// --fix writes through a symbolic link: the link stays a link and its
// target gets the fix, as fmt -w does.
func TestFixKeepsSymlinks(t *testing.T) {
	dir := writeConf(t, map[string]string{
		"nginx.conf":           "events {}\nhttp {\n    server_tokens off;\n    include sites-enabled/*;\n}\n",
		"sites-available/site": "server {\n    listen 127.0.0.1:8080;\n    locaton / { return 204; }\n}\n",
	})
	if err := os.MkdirAll(filepath.Join(dir, "sites-enabled"), 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "sites-enabled", "site")
	if err := os.Symlink("../sites-available/site", link); err != nil {
		t.Fatal(err)
	}
	if code, out, errOut := runCLI(t, "", "--fix", dir); code != exitClean {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("sites-enabled/site is no longer a link: %v %v", fi.Mode(), err)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "sites-available", "site"))
	if !strings.Contains(string(b), "location / {") {
		t.Errorf("the link's target was not fixed:\n%s", b)
	}
}

func TestFmtDiff(t *testing.T) {
	dir := writeConf(t, map[string]string{"nginx.conf": "events {}\nhttp {\nserver_tokens off;\n}\n", "ok.conf": "events {}\n"})
	main := filepath.Join(dir, "nginx.conf")
	code, out, errOut := runCLI(t, "", "fmt", "--diff", dir)
	if code != exitFindings {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	if !strings.Contains(out, "-server_tokens off;\n+    server_tokens off;\n") || !strings.Contains(out, "nginx.conf\n") || strings.Contains(out, "ok.conf") {
		t.Errorf("diff:\n%s", out)
	}
	if b, _ := os.ReadFile(main); string(b) != "events {}\nhttp {\nserver_tokens off;\n}\n" {
		t.Errorf("--diff wrote the file")
	}
	if code, out, _ := runCLI(t, "", "fmt", "--diff", filepath.Join(dir, "ok.conf")); code != exitClean || out != "" {
		t.Errorf("formatted file: exit %d, output %q", code, out)
	}
	if code, _, _ := runCLI(t, "", "fmt", "--diff", "-w", main); code != exitUsage {
		t.Errorf("--diff -w: exit %d", code)
	}
}

// build-info lists the advisories whose trigger is a configuration
// pattern for the build's version, and none for a fixed one.
func TestBuildInfoAdvisories(t *testing.T) {
	old := "nginx version: nginx/1.22.1\nconfigure arguments: --with-threads\n"
	code, out, errOut := runCLI(t, old, "build-info", "-")
	if code != exitClean || strings.Count(out, "advisory: CVE-") != 6 || !strings.Contains(out, "CVE-2026-42945 (fixed in 1.31.0 or 1.30.1)") ||
		!strings.Contains(out, "CVE-2026-125283 (fixed in 1.31.9 or 1.30.7)") {
		t.Errorf("1.22.1: exit %d\n%s%s", code, out, errOut)
	}
	code, out, _ = runCLI(t, "nginx version: nginx/1.30.2\n", "build-info", "--format", "json", "-")
	if code != exitClean || !strings.Contains(out, `"id": "CVE-2026-42533"`) || strings.Contains(out, "CVE-2026-9256") {
		t.Errorf("1.30.2 json: %s", out)
	}
	if _, out, _ := runCLI(t, "nginx version: nginx/1.31.9\n", "build-info", "-"); strings.Contains(out, "advisory") {
		t.Errorf("1.31.9 has no advisory:\n%s", out)
	}
	if _, out, _ := runCLI(t, "nginx version: openresty/1.21.4.1\n", "build-info", "-"); strings.Contains(out, "advisory") {
		t.Errorf("an openresty version is not nginx's:\n%s", out)
	}
}

func TestUnifiedDiffLabels(t *testing.T) {
	if d := unifiedDiff("conf/a.conf", "a;\n", "b;\n"); !strings.HasPrefix(d, "--- a/conf/a.conf\n+++ b/conf/a.conf\n") {
		t.Errorf("relative:\n%s", d)
	}
	if d := unifiedDiff("/etc/nginx/nginx.conf", "a;\n", "b;\n"); !strings.HasPrefix(d, "--- /etc/nginx/nginx.conf\n+++ /etc/nginx/nginx.conf\n") {
		t.Errorf("absolute:\n%s", d)
	}
}

// An edit made to a file while --fix ran is kept: the fix is not written
// over it, and the next run fixes the new contents.
func TestFixWriteKeepsAnEdit(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "nginx.conf")
	if err := os.WriteFile(p, []byte("events {}\nhttp {\n    server_tokens on;\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	const edit = "events {}\nhttp {\n    server_tokens on;\n    gzip on;\n}\n"
	beforeWrite = func(string) { os.WriteFile(p, []byte(edit), 0o644) }
	defer func() { beforeWrite = nil }()
	code, _, errOut := runCLI(t, "", "--fix", p)
	if code != exitError || !strings.Contains(errOut, "nginx.conf: changed since nginx-lint read it, not written") {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
	if b, _ := os.ReadFile(p); string(b) != edit {
		t.Errorf("the edit was lost: %q", b)
	}
	beforeWrite = nil
	runCLI(t, "", "--fix", p)
	if b, _ := os.ReadFile(p); !strings.Contains(string(b), "server_tokens off;") || !strings.Contains(string(b), "gzip on;") {
		t.Errorf("second run wrote %q", b)
	}
}

// TestOutputNamesTarget: a finding or fix that depends on the version
// says which nginx it assumed: the text summary ("linted for ..."), JSON's
// target, SARIF's target property, and --fix's "fixed" line; a finding
// that does not depend on it says nothing of the target.
func TestOutputNamesTarget(t *testing.T) {
	const newest = "nginx " + directives.NginxVersion + " (newest; no target named)"
	dir := writeConf(t, map[string]string{
		"http2.conf": "events {}\nhttp {\n    server_tokens off;\n    server {\n        listen 127.0.0.1:18443 http2;\n        return 204;\n    }\n}\n",
		"plain.conf": "events {}\nhttp {\n    server {\n        listen 127.0.0.1:18080;\n        root /srv/a;\n        root /srv/b;\n    }\n}\n",
	})
	http2, plain := filepath.Join(dir, "http2.conf"), filepath.Join(dir, "plain.conf")
	code, out, _ := runCLI(t, "", "--no-config", "--fail-level", "warning", "--color", "never", http2)
	if code != exitFindings || !strings.Contains(out, "; linted for "+newest+"\n") || !strings.Contains(out, "not fixed automatically") {
		t.Errorf("no target: exit %d, the summary does not name the target assumed or the detail why nothing is fixed:\n%s", code, out)
	}
	code, out, _ = runCLI(t, "", "--no-config", "--fail-level", "warning", "--color", "never", "--nginx-version", "1.26.0", http2)
	if code != exitFindings || !strings.Contains(out, "; linted for nginx 1.26.0\n") {
		t.Errorf("--nginx-version 1.26.0: exit %d:\n%s", code, out)
	}
	code, out, _ = runCLI(t, "", "--no-config", "--fail-level", "warning", "--color", "never", plain)
	if code != exitFindings || strings.Contains(out, "linted for") {
		t.Errorf("a finding that does not depend on the version names a target: exit %d:\n%s", code, out)
	}
	code, out, _ = runCLI(t, "", "--no-config", "--fail-level", "warning", "--format", "json", http2)
	if code != exitFindings || !strings.Contains(out, `"target":"`+newest+`"`) && !strings.Contains(out, `"target": "`+newest+`"`) {
		t.Errorf("JSON has no target:\n%s", out)
	}
	code, out, _ = runCLI(t, "", "--no-config", "--fail-level", "warning", "--format", "json", plain)
	if code != exitFindings || strings.Contains(out, `"target"`) {
		t.Errorf("JSON names a target for a finding that does not depend on it:\n%s", out)
	}
	code, out, _ = runCLI(t, "", "--no-config", "--fail-level", "warning", "--format", "sarif", http2)
	var log struct {
		Runs []struct {
			Results []struct {
				Properties map[string]string `json:"properties"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(out), &log); err != nil || code != exitFindings || len(log.Runs) != 1 ||
		len(log.Runs[0].Results) != 1 || log.Runs[0].Results[0].Properties["target"] != newest {
		t.Errorf("SARIF has no target property (exit %d, %v):\n%s", code, err, out)
	}
	// nginx-advisory reports the HTTP/2 advisories of 1.25.1 once the fix
	// turns HTTP/2 on: only the fixed line is asked about here.
	code, _, errOut := runCLI(t, "", "--no-config", "--disable", "nginx-advisory", "--fix", "--nginx-version", "1.25.1", http2)
	if code != exitClean || !strings.Contains(errOut, "(deprecated; for nginx 1.25.1)") {
		t.Errorf("--fix for 1.25.1: exit %d, the fixed line does not name the target:\n%s", code, errOut)
	}
	if b, err := os.ReadFile(http2); err != nil || !strings.Contains(string(b), "http2 on;") {
		t.Errorf("--fix for 1.25.1 did not write http2 on (%v):\n%s", err, b)
	}
}
