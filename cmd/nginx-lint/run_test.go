package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func runCLI(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(args, strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

func testdata(name string) string { return filepath.Join("..", "..", "testdata", name) }

func TestExitCodes(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want int
	}{
		{"clean", []string{testdata("cli/clean.conf")}, exitClean},
		{"findings", []string{testdata("examples/nginx.conf")}, exitFindings},
		{"findings below fail level", []string{"--fail-level", "none", testdata("examples/nginx.conf")}, exitClean},
		{"unreadable", []string{testdata("cli/does-not-exist.conf")}, exitError},
		{"unknown flag", []string{"--no-such-flag"}, exitUsage},
		{"bad enum", []string{"--format", "yaml", testdata("cli/clean.conf")}, exitUsage},
		{"help", []string{"--help"}, exitClean},
		{"fragment inferred", []string{testdata("cli/site.conf")}, exitClean},
		{"snippet inferred", []string{testdata("cli/snippet.conf")}, exitClean},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := runCLI(t, "", tt.args...)
			if code != tt.want {
				t.Errorf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tt.want, out, errOut)
			}
		})
	}
}

func TestTextOutput(t *testing.T) {
	path := testdata("examples/nginx.conf")
	code, out, _ := runCLI(t, "", "--color", "never", path)
	if code != exitFindings {
		t.Fatalf("exit %d", code)
	}
	abs, _ := filepath.Abs(path)
	want := abs + `:18:9: error: unexpected "}" [NL1001 syntax-error]
            }
            ^
    directive "root" is not terminated by ";": it is probably missing after "root /var/www/html" on line 17
    ` + abs + `:17:31: insert ";" here
1 error
`
	if out != want {
		t.Errorf("got:\n%s\nwant:\n%s", out, want)
	}
	if strings.Contains(out, "\x1b[") {
		t.Error("color codes with --color never")
	}
	_, colored, _ := runCLI(t, "", "--color", "always", path)
	if !strings.Contains(colored, "\x1b[") {
		t.Error("no color codes with --color always")
	}
	// auto: the test's stdout is a buffer, not a terminal.
	_, auto, _ := runCLI(t, "", path)
	if strings.Contains(auto, "\x1b[") {
		t.Error("color codes when stdout is not a terminal")
	}
}

// TestColorEnv: --color wins over the environment; under auto, a
// non-empty NO_COLOR turns color off (an empty one does not), and
// FORCE_COLOR or CLICOLOR_FORCE (not empty, not "0") turn it on, winning
// over NO_COLOR.
func TestColorEnv(t *testing.T) {
	for _, tc := range []struct {
		mode     string
		terminal bool
		env      map[string]string
		want     bool
	}{
		{"auto", true, nil, true},
		{"auto", false, nil, false},
		{"auto", true, map[string]string{"NO_COLOR": "1"}, false},
		{"auto", true, map[string]string{"NO_COLOR": ""}, true},
		{"auto", true, map[string]string{"NO_COLOR": "0"}, false},
		{"auto", false, map[string]string{"FORCE_COLOR": "1"}, true},
		{"auto", false, map[string]string{"FORCE_COLOR": "3"}, true},
		{"auto", false, map[string]string{"FORCE_COLOR": ""}, false},
		{"auto", false, map[string]string{"FORCE_COLOR": "0"}, false},
		{"auto", false, map[string]string{"CLICOLOR_FORCE": "1"}, true},
		{"auto", false, map[string]string{"CLICOLOR_FORCE": "0"}, false},
		{"auto", false, map[string]string{"CLICOLOR_FORCE": "1", "NO_COLOR": "1"}, true},
		{"auto", true, map[string]string{"FORCE_COLOR": "0", "NO_COLOR": "1"}, false},
		{"always", false, map[string]string{"NO_COLOR": "1"}, true},
		{"never", true, map[string]string{"FORCE_COLOR": "1"}, false},
		{"never", true, map[string]string{"CLICOLOR_FORCE": "1"}, false},
	} {
		for _, k := range []string{"NO_COLOR", "FORCE_COLOR", "CLICOLOR_FORCE"} {
			if v, ok := tc.env[k]; ok {
				t.Setenv(k, v)
			} else {
				t.Setenv(k, "")
				os.Unsetenv(k)
			}
		}
		if got := useColor(tc.mode, tc.terminal); got != tc.want {
			t.Errorf("--color %s, terminal %v, env %v: color %v, want %v", tc.mode, tc.terminal, tc.env, got, tc.want)
		}
	}
	// Through the command: stdout is a buffer, FORCE_COLOR colors it.
	t.Setenv("FORCE_COLOR", "1")
	path := testdata("examples/nginx.conf")
	if _, out, _ := runCLI(t, "", path); !strings.Contains(out, "\x1b[") {
		t.Error("FORCE_COLOR=1: no color codes")
	}
	if _, out, _ := runCLI(t, "", "--color", "never", path); strings.Contains(out, "\x1b[") {
		t.Error("FORCE_COLOR=1 --color never: color codes")
	}
}

func TestJSONOutput(t *testing.T) {
	code, out, _ := runCLI(t, "", "--format", "json", testdata("examples/nginx.conf"))
	if code != exitFindings {
		t.Fatalf("exit %d", code)
	}
	var got struct {
		Diagnostics []map[string]any `json:"diagnostics"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Diagnostics) != 1 {
		t.Fatalf("%d diagnostics", len(got.Diagnostics))
	}
	d := got.Diagnostics[0]
	for _, k := range []string{"file", "line", "column", "end_line", "end_column", "severity", "code", "name", "message"} {
		if _, ok := d[k]; !ok {
			t.Errorf("missing field %q", k)
		}
	}
	if d["line"] != 18.0 || d["column"] != 9.0 || d["severity"] != "error" || d["name"] != "syntax-error" {
		t.Errorf("diagnostic %v", d)
	}
	_, clean, _ := runCLI(t, "", "--format", "json", testdata("cli/clean.conf"))
	if strings.TrimSpace(clean) != "{\n  \"diagnostics\": []\n}" {
		t.Errorf("clean output %q", clean)
	}
}

func TestStdinDump(t *testing.T) {
	dump := "# configuration file /etc/nginx/nginx.conf:\nevents {}\nhttp { include sites/*.conf; }\n\n" +
		"# configuration file /etc/nginx/sites/a.conf:\nserver {\n    listen 80\n}\n"
	code, out, _ := runCLI(t, dump, "--color", "never", "-")
	want := "/etc/nginx/sites/a.conf:3:1: error: unexpected \"}\""
	if code != exitFindings || !strings.Contains("\n"+out, "\n"+want) {
		t.Errorf("exit %d, output:\n%s", code, out)
	}
}

func TestExplicitContext(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "x.conf")
	// In a location, "server" has no business; as http it is a block.
	if err := os.WriteFile(p, []byte("server;\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, _ := runCLI(t, "", "--context", "http", "--color", "never", p)
	if code != exitFindings || !strings.Contains(out, `directive "server" has no opening "{"`) {
		t.Errorf("exit %d, output:\n%s", code, out)
	}
}

func TestParseCrossplane(t *testing.T) {
	code, out, _ := runCLI(t, "", "parse", "--format", "crossplane", "--include-comments", testdata("examples/nginx.conf"))
	if code != exitFindings {
		t.Fatalf("exit %d", code)
	}
	var p struct {
		Status string
		Config []struct {
			File   string
			Parsed []map[string]any
		}
	}
	if err := json.Unmarshal([]byte(out), &p); err != nil {
		t.Fatal(err)
	}
	if p.Status != "failed" || len(p.Config) != 2 || !strings.HasSuffix(p.Config[1].File, "mime.types") {
		t.Errorf("payload %+v", p)
	}
	if p.Config[0].Parsed[0]["directive"] != "#" {
		t.Errorf("first entry should be the comment: %v", p.Config[0].Parsed[0])
	}
	code, out, _ = runCLI(t, "", "parse", "--single-file", testdata("cli/clean.conf"))
	if code != exitClean || strings.Contains(out, "includes") {
		t.Errorf("single file: exit %d\n%s", code, out)
	}
}

// TestNginxBuild lints for a given build: a directive newer than it and one
// of a module it lacks are unknown to it.
func TestNginxBuild(t *testing.T) {
	dir := t.TempDir()
	v := filepath.Join(dir, "nginx-V.txt")
	if err := os.WriteFile(v, []byte("nginx version: nginx/1.22.1\nconfigure arguments: --with-http_ssl_module --with-http_v2_module\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	conf := filepath.Join(dir, "nginx.conf")
	src := "events {}\nhttp {\n    server_tokens off;\n    server {\n        listen 127.0.0.1:8443 quic;\n        http2 on;\n        http3 on;\n        location / { sub_filter a b; }\n    }\n" +
		"    upstream app {\n        server 127.0.0.1:9000 resolve;\n        resolver 127.0.0.53;\n    }\n}\n"
	if err := os.WriteFile(conf, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, _ := runCLI(t, "", "--format", "json", "--nginx-build", v, conf)
	if code != exitFindings {
		t.Fatalf("exit %d\n%s", code, out)
	}
	for _, want := range []string{`unknown directive \"http2\": nginx 1.22.1 predates it (since 1.25.1)`, `unknown directive \"sub_filter\": this nginx build lacks its module`,
		// The docs give http3 no version; the tables know it from nginx's
		// source history.
		`unknown directive \"http3\": nginx 1.22.1 predates it (since 1.25.0)`,
		// resolver is an http directive of old, but upstream blocks
		// accept it only since 1.27.3.
		`\"resolver\" directive is not allowed here in nginx 1.22.1`,
		// Parameters follow the version too.
		`invalid parameter \"quic\"`, `invalid parameter \"resolve\"`} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %s in\n%s", want, out)
		}
	}
	if strings.Contains(out, `\"http2\" directive is not allowed`) {
		t.Errorf("http2, unknown to 1.22.1, also reported as misplaced:\n%s", out)
	}
	if code, _, _ := runCLI(t, "", conf); code != exitClean {
		t.Errorf("without a build, exit %d", code)
	}
}

func TestVersionFlag(t *testing.T) {
	code, out, _ := runCLI(t, "", "--version")
	if code != exitClean || !strings.HasPrefix(out, "nginx-lint ") {
		t.Errorf("exit %d, output %q", code, out)
	}
}
