package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

type finding struct {
	File    string `json:"file"`
	Line    int    `json:"line"`
	Related []struct {
		File string `json:"file"`
		Line int    `json:"line"`
	} `json:"related"`
	Severity string `json:"severity"`
	Code     string `json:"code"`
	Name     string `json:"name"`
	Message  string `json:"message"`
}

// lintJSON runs the lint command with --format json and decodes the result.
func lintJSON(t *testing.T, args ...string) (int, []finding) {
	t.Helper()
	code, out, errOut := runCLI(t, "", append([]string{"--format", "json"}, args...)...)
	var got struct{ Diagnostics []finding }
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("exit %d, %v\nstdout:\n%s\nstderr:\n%s", code, err, out, errOut)
	}
	return code, got.Diagnostics
}

// keys renders findings as "base:line name" (severity when not a warning).
func keys(fs []finding, names ...string) []string {
	out := []string{}
	for _, f := range fs {
		if len(names) > 0 && !slices.Contains(names, f.Name) {
			continue
		}
		k := filepath.Base(f.File) + ":" + itoa(f.Line) + " " + f.Name
		if f.Severity != "warning" {
			k += " " + f.Severity
		}
		out = append(out, k)
	}
	return out
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// ruleNames are the rules the project testdata is about; other rules may
// come to fire on it and are left out of the comparisons.
var ruleNames = []string{"unknown-directive", "directive-not-allowed", "invalid-arguments",
	"ignore-without-reason", "unused-ignore", "invalid-ignore"}

func TestSettingsFileFoundUpward(t *testing.T) {
	code, fs := lintJSON(t, testdata("cli/project/nginx.conf"))
	if code != exitFindings {
		t.Errorf("exit %d", code)
	}
	// vts_status is a custom directive, "listen" in http is switched off,
	// invalid-arguments is lowered to a warning, conf.d is read through
	// include-paths and one ignore there works while the other is unused.
	want := []string{"site.conf:6 unused-ignore", "site.conf:10 unknown-directive error", "nginx.conf:6 invalid-arguments"}
	if got := keys(fs, ruleNames...); !slices.Equal(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
	// Findings in a mapped include point at the local file.
	local, _ := filepath.Abs(testdata("cli/project/conf.d/site.conf"))
	for _, f := range fs {
		if filepath.Base(f.File) == "site.conf" && f.File != local {
			t.Errorf("path %q, want %q", f.File, local)
		}
	}
}

func TestSettingsFileFlags(t *testing.T) {
	conf := testdata("cli/project/nginx.conf")
	// lenient.yaml has no include-paths: conf.d is still read from the
	// checkout, which its nginx.conf shows to be a copy of /etc/nginx.
	_, fs := lintJSON(t, "--config", testdata("cli/project/lenient.yaml"), conf)
	want := []string{"site.conf:6 unused-ignore", "site.conf:10 unknown-directive",
		"nginx.conf:4 unknown-directive", "nginx.conf:5 directive-not-allowed error", "nginx.conf:6 invalid-arguments error"}
	if got := keys(fs, ruleNames...); !slices.Equal(got, want) {
		t.Errorf("--config: got %q\nwant %q", got, want)
	}
	_, fs = lintJSON(t, "--no-config", conf)
	if got := keys(fs, "unknown-directive"); !slices.Equal(got, []string{"site.conf:10 unknown-directive error", "nginx.conf:4 unknown-directive error"}) {
		t.Errorf("--no-config: %q", got)
	}
	// The command line wins over the file.
	_, fs = lintJSON(t, "--disable", "NL2003", "--strict", conf)
	if got := keys(fs, "invalid-arguments", "unknown-directive"); !slices.Equal(got, []string{"site.conf:10 unknown-directive error"}) {
		t.Errorf("flags over file: %q", got)
	}
}

func TestSettingsFileErrors(t *testing.T) {
	dir := writeConf(t, map[string]string{
		"bad/.nginx-lint.yaml":    "rules:\n  unknown-directive: loud\n",
		"bad/nginx.conf":          "events {}\n",
		"unknown/.nginx-lint.yml": "rules:\n  no-such-rule: off\n",
		"unknown/nginx.conf":      "events {}\n",
	})
	tests := []struct {
		name string
		args []string
		want int
		msg  string
	}{
		{"bad value", []string{filepath.Join(dir, "bad/nginx.conf")}, exitUsage, "loud"},
		{"unknown rule", []string{filepath.Join(dir, "unknown/nginx.conf")}, exitUsage, "no-such-rule"},
		{"missing --config", []string{"--config", filepath.Join(dir, "nope.yaml"), testdata("cli/clean.conf")}, exitError, "nope.yaml"},
		{"--config and --no-config", []string{"--config", "x", "--no-config", testdata("cli/clean.conf")}, exitUsage, "together"},
		{"unknown --disable", []string{"--disable", "nope", testdata("cli/clean.conf")}, exitUsage, "nope"},
		{"missing --baseline", []string{"--baseline", filepath.Join(dir, "nope.json"), testdata("cli/clean.conf")}, exitError, "nope.json"},
		{"bad --baseline", []string{"--baseline", filepath.Join(dir, "bad/nginx.conf"), testdata("cli/clean.conf")}, exitUsage, "baseline"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := runCLI(t, "", tt.args...)
			if code != tt.want || !strings.Contains(errOut, tt.msg) {
				t.Errorf("exit %d (want %d), stderr %q (want %q)\n%s", code, tt.want, errOut, tt.msg, out)
			}
		})
	}
}

func TestBaseline(t *testing.T) {
	conf := "events {}\nhttp {\n    server_tokens off;\n    gzipp on;\n    gzip maybe;\n}\n"
	dir := writeConf(t, map[string]string{"conf/nginx.conf": conf})
	path := filepath.Join(dir, "conf/nginx.conf")
	bl := filepath.Join(dir, "baseline.json")

	code, out, errOut := runCLI(t, "", "--write-baseline", bl, path)
	if code != exitClean || out != "" || errOut != "" {
		t.Fatalf("write: exit %d\nstdout %q\nstderr %q", code, out, errOut)
	}
	text, err := os.ReadFile(bl)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(text), `"file": "conf/nginx.conf"`) || strings.Contains(string(text), dir) {
		t.Errorf("baseline paths are not relative:\n%s", text)
	}

	code, fs := lintJSON(t, "--baseline", bl, path)
	if code != exitClean || len(fs) != 0 {
		t.Errorf("with baseline: exit %d, %q", code, keys(fs))
	}

	// Lines inserted above keep the old findings known; one new finding
	// is reported alone.
	edited := "# header\n\n" + strings.Replace(conf, "    gzipp on;\n", "    gzipp on;\n    proxy_passs x;\n", 1)
	if err := os.WriteFile(path, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	code, fs = lintJSON(t, "--baseline", bl, path)
	if got := keys(fs, ruleNames...); code != exitFindings || !slices.Equal(got, []string{"nginx.conf:7 unknown-directive error"}) {
		t.Errorf("after edit: exit %d, %q", code, got)
	}
	// Without the baseline everything is back.
	_, fs = lintJSON(t, path)
	if got := keys(fs, ruleNames...); len(got) != 3 {
		t.Errorf("without baseline: %q", got)
	}
}

func TestFailLevel(t *testing.T) {
	// Only an info finding (severity lowered by the settings file) and a
	// warning, in separate files.
	dir := writeConf(t, map[string]string{
		".nginx-lint.yaml": "rules:\n  unknown-directive: info\n",
		"info.conf":        "events {}\nhttp {\n    server_tokens off;\n    gzipp on;\n}\n",
		"error.conf":       "events {}\nhttp {\n    server_tokens off;\n    gzip maybe;\n}\n",
		"warning.conf":     "events {}\nhttp {\n    server_tokens off;\n    ssl_protocols TLSv1 TLSv1.2;\n}\n",
	})
	info, errc, warn := filepath.Join(dir, "info.conf"), filepath.Join(dir, "error.conf"), filepath.Join(dir, "warning.conf")
	// Other rules could add findings to these files; the table needs only
	// the two under test, so switch off everything else that fires.
	_, all := lintJSON(t, info, errc, warn)
	var disable []string
	for _, f := range all {
		if f.Name != "unknown-directive" && f.Name != "invalid-arguments" && f.Name != "weak-ssl-tls" && !slices.Contains(disable, f.Name) {
			disable = append(disable, "--disable", f.Name)
		}
	}
	tests := []struct {
		level string
		path  string
		want  int
	}{
		{"info", info, exitFindings},
		{"warning", info, exitClean},
		{"none", errc, exitClean},
		{"error", errc, exitFindings},
		{"warning", errc, exitFindings},
		{"warning", warn, exitFindings},
		{"error", warn, exitClean},
	}
	for _, tt := range tests {
		args := append(append([]string{"--fail-level", tt.level}, disable...), tt.path)
		if code, _, errOut := runCLI(t, "", args...); code != tt.want {
			t.Errorf("--fail-level %s %s: exit %d, want %d\n%s", tt.level, filepath.Base(tt.path), code, tt.want, errOut)
		}
	}
	// The default is error: what nginx refuses blocks, a warning does not.
	if code, _, _ := runCLI(t, "", append(disable, info)...); code != exitClean {
		t.Errorf("default fail level: exit %d for an info finding", code)
	}
	if code, _, _ := runCLI(t, "", append(disable, warn)...); code != exitClean {
		t.Errorf("default fail level: exit %d for a warning", code)
	}
	if code, _, _ := runCLI(t, "", append(disable, errc)...); code != exitFindings {
		t.Errorf("default fail level: exit %d for an error", code)
	}
}

func TestSuppressionEndToEnd(t *testing.T) {
	code, fs := lintJSON(t, testdata("cli/suppress.conf"))
	want := []string{
		"suppress.conf:4 ignore-without-reason info",
		"suppress.conf:8 invalid-ignore",
		"suppress.conf:12 unused-ignore",
		"suppress.conf:16 unknown-directive error",
	}
	if got := keys(fs, ruleNames...); code != exitFindings || !slices.Equal(got, want) {
		t.Errorf("exit %d\ngot  %q\nwant %q", code, got, want)
	}
	// require-reason: true in the settings makes a missing reason the
	// warning it was.
	settings := writeConf(t, map[string]string{".nginx-lint.yaml": "rules:\n  ignore-without-reason:\n    options: {require-reason: true}\n"})
	_, fs = lintJSON(t, "--config", filepath.Join(settings, ".nginx-lint.yaml"), testdata("cli/suppress.conf"))
	if got := keys(fs, "ignore-without-reason"); !slices.Equal(got, []string{"suppress.conf:4 ignore-without-reason"}) {
		t.Errorf("require-reason: %q, want the finding as a warning", got)
	}
	// The findings about comments are rules like any other.
	_, fs = lintJSON(t, "--disable", "unused-ignore", "--disable", "NL5001", testdata("cli/suppress.conf"))
	if got := keys(fs, "unused-ignore", "ignore-without-reason"); len(got) != 0 {
		t.Errorf("disabled suppression findings still reported: %q", got)
	}
}

// TestLintDirectory: a directory lints its configuration files; what one
// of them includes is linted through it (symlinked sites included), once;
// a snippet's includes resolve against the nearest nginx.conf's
// directory; hidden directories are skipped; an empty tree is refused.
func TestLintDirectory(t *testing.T) {
	dir := writeConf(t, map[string]string{
		"nginx.conf":           "events {}\nhttp {\n    include conf.d/*.conf;\n    include sites-enabled/*;\n}\n",
		"conf.d/a.conf":        "server {\n    listen 8080;\n    gzipp on;\n}\n",
		"sites-available/site": "server {\n    listen 8081;\n    server_name x.example;\n    gzipp on;\n}\n",
		"snippets/s.conf":      "location /x {\n    include other.conf;\n}\n",
		"other.conf":           "gzip on;\n",
		".hidden/broken.conf":  "http {{{\n",
		"notes.txt":            "not a config {\n",
	})
	if err := os.MkdirAll(filepath.Join(dir, "sites-enabled"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../sites-available/site", filepath.Join(dir, "sites-enabled/site")); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCLI(t, "", "--format", "json", dir)
	var got struct {
		Diagnostics []struct {
			File, Name string
			Line       int
		}
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("exit %d: %v\n%s%s", code, err, out, errOut)
	}
	var where []string
	for _, d := range got.Diagnostics {
		where = append(where, d.Name+"@"+strings.TrimPrefix(d.File, dir+"/")+":"+strconv.Itoa(d.Line))
	}
	// The site is reported once, under the path nginx reads it by.
	if want := "unknown-directive@conf.d/a.conf:3 unknown-directive@sites-enabled/site:4"; code != exitFindings || strings.Join(where, " ") != want {
		t.Errorf("exit %d, findings %v, want %s", code, where, want)
	}
	// Files named one by one (as pre-commit passes them) behave the same.
	code, out, _ = runCLI(t, "", "--format", "json", filepath.Join(dir, "sites-available/site"), filepath.Join(dir, "nginx.conf"))
	if !strings.Contains(out, "sites-enabled/site") || strings.Contains(out, "sites-available/site") || code != exitFindings {
		t.Errorf("files: exit %d\n%s", code, out)
	}
	if code, _, errOut := runCLI(t, "", t.TempDir()); code != exitUsage || !strings.Contains(errOut, "no configuration files") {
		t.Errorf("empty directory: exit %d, %q", code, errOut)
	}
}

// TestCheckFiles: a missing certificate is an error only with
// --check-files or check-files: true in the settings file, and the
// variables follow the build given with --nginx-build.
func TestCheckFiles(t *testing.T) {
	dir := writeConf(t, map[string]string{
		"site/nginx.conf": "events {}\nhttp {\n    server {\n        listen 443 ssl;\n        ssl_certificate missing.crt;\n" +
			"        ssl_certificate_key missing.key;\n        return 200 $is_request_port;\n    }\n}\n",
		"host/.nginx-lint.yaml": "check-files: true\n",
		"host/nginx.conf":       "events {}\nhttp {\n    server {\n        listen 443 ssl;\n        ssl_certificate missing.crt;\n        ssl_certificate_key missing.key;\n    }\n}\n",
		"build.txt":             "nginx version: nginx/1.22.1\nconfigure arguments: --with-http_ssl_module\n",
	})
	conf := filepath.Join(dir, "site/nginx.conf")
	names := []string{"missing-file", "unknown-variable"}
	if _, fs := lintJSON(t, conf); len(keys(fs, names...)) != 0 {
		t.Errorf("without --check-files: %q", keys(fs, names...))
	}
	_, fs := lintJSON(t, "--check-files", "--nginx-build", filepath.Join(dir, "build.txt"), conf)
	want := []string{"nginx.conf:5 missing-file error", "nginx.conf:6 missing-file error", "nginx.conf:7 unknown-variable error"}
	if got := keys(fs, names...); !slices.Equal(got, want) {
		t.Errorf("--check-files: got %q\nwant %q", got, want)
	}
	code, fs := lintJSON(t, filepath.Join(dir, "host/nginx.conf"))
	if got := keys(fs, names...); code != exitFindings || len(got) != 2 {
		t.Errorf("check-files in the settings file: exit %d, %q", code, got)
	}
}

// TestTargetOrder: the target is the flag (--nginx-build, --nginx or
// --nginx-version), else the settings (nginx-build or nginx-version), else
// the newest nginx; "http2 on" is unknown to 1.22.1 only. Of the flags, a
// build named wins over a version.
func TestTargetOrder(t *testing.T) {
	dir := writeConf(t, map[string]string{
		"site/.nginx-lint.yaml": "nginx-version: 1.22.1\n",
		"site/nginx.conf":       "events {}\nhttp {\n    server {\n        listen 127.0.0.1:8080;\n        http2 on;\n    }\n}\n",
	})
	conf := filepath.Join(dir, "site", "nginx.conf")
	http2 := func(args ...string) bool {
		_, fs := lintJSON(t, append(args, conf)...)
		for _, f := range fs {
			if f.Name == "unknown-directive" && f.Line == 5 {
				return true
			}
		}
		return false
	}
	if !http2() {
		t.Error("the settings' nginx-version 1.22.1 does not apply")
	}
	if http2("--nginx-version", "1.25.1") {
		t.Error("--nginx-version does not win over the settings")
	}
	if http2("--no-config") {
		t.Error("with no target, the newest nginx is not assumed")
	}
	// A settings file that names a build (nginx 1.22.1's nginx -V): the
	// flag's version still wins, and --nginx-build wins over the flag's.
	build := filepath.Join(dir, "built", "nginx-V.txt")
	if err := os.MkdirAll(filepath.Dir(build), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(build, []byte("nginx version: nginx/1.22.1\nbuilt with OpenSSL 3.0.2\nconfigure arguments: --with-http_ssl_module --with-http_v2_module\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "site", ".nginx-lint.yaml"), []byte("nginx-build: ../built/nginx-V.txt\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if !http2() {
		t.Error("the settings' nginx-build (1.22.1) does not apply")
	}
	if http2("--nginx-version", "1.25.1") {
		t.Error("--nginx-version does not win over the settings' nginx-build")
	}
	if !http2("--nginx-version", "1.25.1", "--nginx-build", build) {
		t.Error("--nginx-build does not win over --nginx-version")
	}
	if code, _, errOut := runCLI(t, "", "--nginx-version", "1.22", conf); code != exitUsage || !strings.Contains(errOut, "not a version") {
		t.Errorf("bad --nginx-version: exit %d, %q", code, errOut)
	}
}

// TestMergeFindingNamesNginxLine: a check nginx makes when it merges the
// http block is reported at the directive, with the line nginx names
// (the block's "}") as its related location in JSON.
func TestMergeFindingNamesNginxLine(t *testing.T) {
	dir := writeConf(t, map[string]string{
		"nginx.conf": "events {}\nhttp {\n    server {\n        listen 127.0.0.1:8080;\n        location / {\n" +
			"            proxy_pass http://127.0.0.1:9;\n            proxy_buffers 4 4k;\n            proxy_busy_buffers_size 64k;\n" +
			"        }\n    }\n}\n",
	})
	_, fs := lintJSON(t, filepath.Join(dir, "nginx.conf"))
	for _, f := range fs {
		if f.Name != "setting-conflict" {
			continue
		}
		if f.Line != 8 || len(f.Related) != 1 || f.Related[0].Line != 11 || filepath.Base(f.Related[0].File) != "nginx.conf" {
			t.Errorf("setting-conflict at line %d, related %+v; want line 8, related line 11", f.Line, f.Related)
		}
		return
	}
	t.Errorf("no setting-conflict: %v", keys(fs))
}

// TestMinSeverity: --min-severity hides the findings below it from every
// output and says so in the text summary; the exit code still follows
// --fail-level over all of them.
func TestMinSeverity(t *testing.T) {
	dir := writeConf(t, map[string]string{"nginx.conf": "events {}\nhttp {\n    server_tokens on;\n    gzip maybe;\n    # nginx-lint ignore=unknown-directive\n    gzipp on;\n}\n"})
	conf := filepath.Join(dir, "nginx.conf")
	_, all := lintJSON(t, conf)
	sev := map[string]int{}
	for _, f := range all {
		sev[f.Severity]++
	}
	if sev["error"] == 0 || sev["warning"] == 0 || sev["info"] == 0 {
		t.Fatalf("the case needs findings of each severity: %v", keys(all))
	}
	code, errs := lintJSON(t, "--min-severity", "error", conf)
	for _, f := range errs {
		if f.Severity != "error" {
			t.Errorf("--min-severity error shows %s", keys([]finding{f}))
		}
	}
	if code != exitFindings || len(errs) != sev["error"] {
		t.Errorf("--min-severity error: exit %d, %d findings, want 1 and %d", code, len(errs), sev["error"])
	}
	if _, warns := lintJSON(t, "--min-severity", "warning", conf); len(warns) != sev["error"]+sev["warning"] {
		t.Errorf("--min-severity warning: %v", keys(warns))
	}
	_, out, _ := runCLI(t, "", "--min-severity", "error", "--color", "never", conf)
	hidden := sev["warning"] + sev["info"]
	if want := fmt.Sprintf("(%d findings below error not shown: --min-severity)", hidden); !strings.Contains(out, want) || strings.Contains(out, "warning:") {
		t.Errorf("text summary does not say %q, or shows a warning:\n%s", want, out)
	}
	// Hidden findings still fail a gate that asks for them, and the
	// summary still says why.
	clean := filepath.Join(writeConf(t, map[string]string{"nginx.conf": "events {}\nhttp {\n    server_tokens on;\n}\n"}), "nginx.conf")
	code, out, _ = runCLI(t, "", "--min-severity", "error", "--fail-level", "warning", "--color", "never", clean)
	if code != exitFindings || !strings.Contains(out, "no finding at error or above (1 finding below error not shown") {
		t.Errorf("hidden warning with --fail-level warning: exit %d\n%s", code, out)
	}
	if code, _, errOut := runCLI(t, "", "--min-severity", "eror", clean); code != exitUsage {
		t.Errorf("--min-severity eror: exit %d\n%s", code, errOut)
	}
}

// TestTargetHint: with no target named and an nginx installed, the
// summary says how to lint for it; a named target, or no nginx, says
// nothing of it.
func TestTargetHint(t *testing.T) {
	conf := filepath.Join(writeConf(t, map[string]string{"nginx.conf": "events {}\nhttp {\n    gzip maybe;\n}\n"}), "nginx.conf")
	old := findNginx
	t.Cleanup(func() { findNginx = old })
	findNginx = func() (string, error) { return "/opt/nginx/sbin/nginx", nil }
	const hint = "for the nginx at /opt/nginx/sbin/nginx: --nginx /opt/nginx/sbin/nginx, or nginx-lint init to keep it in the settings"
	_, out, _ := runCLI(t, "", "--color", "never", conf)
	if !strings.Contains(out, "1 error; "+hint+"\n") {
		t.Errorf("no hint in the summary:\n%s", out)
	}
	if _, out, _ := runCLI(t, "", "--color", "never", "--nginx-version", "1.22.1", conf); strings.Contains(out, hint) {
		t.Errorf("hint with a target named:\n%s", out)
	}
	findNginx = old
	if _, out, _ := runCLI(t, "", "--color", "never", conf); strings.Contains(out, "for the nginx at") {
		t.Errorf("hint without nginx:\n%s", out)
	}
}

// The done-means of issue 34: a target of the 1.30 branch before the
// November 2026 release reports the HTTP/2 advisory on an "http2 on"
// server, 1.30.7 does not, and a target newer than the tables is said
// once, however many files are linted.
func TestAdvisoryTargets(t *testing.T) {
	dir := t.TempDir()
	conf := filepath.Join(dir, "nginx.conf")
	other := filepath.Join(dir, "other.conf")
	src := "events {}\nhttp {\n    server {\n        listen 443 ssl;\n        http2 on;\n        ssl_certificate a.pem;\n        ssl_certificate_key a.key;\n    }\n}\n"
	for _, f := range []string{conf, other} {
		if err := os.WriteFile(f, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	code, out, _ := runCLI(t, "", "--no-config", "--nginx-version", "1.30.6", conf)
	if code != exitFindings || !strings.Contains(out, "nginx 1.30.6 is affected by CVE-2026-123007") {
		t.Errorf("1.30.6: exit %d\n%s", code, out)
	}
	if _, out, _ := runCLI(t, "", "--no-config", "--nginx-version", "1.30.7", conf); strings.Contains(out, "CVE-") {
		t.Errorf("1.30.7 is fixed:\n%s", out)
	}
	_, out, errOut := runCLI(t, "", "--no-config", "--nginx-version", "1.31.10", conf, other)
	if strings.Count(errOut, "nginx-lint knows releases up to 1.31.9") != 1 || strings.Contains(out, "CVE-") {
		t.Errorf("1.31.10: stdout\n%s\nstderr\n%s", out, errOut)
	}
	if _, _, errOut := runCLI(t, "", "--no-config", "--nginx-version", "1.31.9", conf); strings.Contains(errOut, "knows releases") {
		t.Errorf("1.31.9 is known:\n%s", errOut)
	}
}
