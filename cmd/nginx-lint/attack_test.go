package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// attack is one hostile configuration and nginx's verdict on it (nginx
// 1.22.1, nginx -t, each checked by hand on 2026-12-05): the line of its
// first error, 0 when it accepts the file.
type attack struct {
	name string
	conf string
	// nginxLine is the line nginx -t refuses; 0: nginx accepts it.
	nginxLine int
}

func inServer(body string) string {
	return "events {}\nhttp {\nserver {\nlisten 127.0.0.1:8080;\n" + body + "\n}\n}\n"
}

func attacks() []attack {
	var mapKeys, wildServers, setChain strings.Builder
	for i := range 20000 {
		fmt.Fprintf(&mapKeys, "  *.h%d.example %d;\n  h%d.example.* %d;\n  .d%d.example %d;\n", i, i, i, i, i, i)
	}
	for i := range 3000 {
		fmt.Fprintf(&wildServers, "server { listen 127.0.0.1:8080; server_name *.s%d.example s%d.example.* .t%d.example; }\n", i, i, i)
	}
	setChain.WriteString("set $v0 a;\n")
	for i := range 3000 {
		fmt.Fprintf(&setChain, "set $v%d \"$v%d$v%d\";\n", i+1, i, i)
	}
	alternatives := make([]string, 20000)
	for i := range alternatives {
		alternatives[i] = fmt.Sprintf("p%05d[a-z]+", i)
	}
	return []attack{
		{"size-overflow", inServer("client_max_body_size 99999999999999999999g;"), 5},
		{"size-int64-max", inServer("client_max_body_size 9223372036854775807;\nclient_body_buffer_size 9223372036854775807;"), 0},
		{"size-k-over", inServer("client_max_body_size 9007199254740992k;"), 5},
		{"size-g-over", inServer("client_max_body_size 8589934592g;"), 5},
		{"size-g-max", inServer("client_max_body_size 8589934591g;"), 0},
		{"time-overflow", inServer("keepalive_timeout 106751991167300d;"), 5},
		{"time-s-max", inServer("send_timeout 9223372036854775s;"), 0},
		{"time-s-over", inServer("send_timeout 9223372036854776s;"), 5},
		{"time-mixed-units", inServer("proxy_read_timeout 1y2M3w4d5h6m7s8ms;"), 5},
		{"worker-connections-negative", "events { worker_connections -1; }\nhttp {}\n", 1},
		{"worker-connections-huge", "events { worker_connections 99999999999999999999; }\nhttp {}\n", 1},
		{"worker-connections-2^31", "events { worker_connections 2147483648; }\nworker_rlimit_nofile 4294967296;\nworker_processes 2147483648;\nhttp {}\n", 0},
		{"timer-resolution-overflow", "timer_resolution 99999999999999999999ms;\nevents {}\nhttp {}\n", 1},
		{"listen-port-65536", inServer("listen 127.0.0.1:65536;"), 5},
		{"listen-port-0", inServer("listen 127.0.0.2:0;"), 5},
		{"listen-port-huge", inServer("listen 127.0.0.1:99999999999999999999;"), 5},
		{"listen-range-reversed", inServer("listen 127.0.0.1:18090-18089;"), 5},
		{"listen-range-over", inServer("listen 127.0.0.1:65535-65536;"), 5},
		{"listen-range-2^32", inServer("listen 127.0.0.1:1-4294967297;"), 5},
		{"listen-ipv6-unterminated", inServer("listen [:::18081;"), 5},
		{"listen-unix-empty", inServer("listen unix:;"), 5},
		{"map-20000-wildcards", "events {}\nhttp {\nmap $host $m {\nhostnames;\ndefault 0;\n" + mapKeys.String() + "}\n}\n", 0},
		{"map-wildcard-star-dot-star", "events {}\nhttp {\nmap $host $m {\nhostnames;\ndefault 0;\n*.* 1;\n}\n}\n", 6},
		{"map-wildcard-conflict", "events {}\nhttp {\nmap $host $m {\nhostnames;\n.example 1;\n*.example 2;\n}\n}\n", 6},
		{"server-names-3000-wildcards", "events {}\nhttp {\n" + wildServers.String() + "}\n", 0},
		{"server-name-double-star", inServer("server_name **;"), 5},
		{"server-name-empty-regex", inServer("server_name ~;"), 5},
		{"server-name-inner-star-shared", "events {}\nhttp {\nserver { listen 127.0.0.1:8080; server_name a.*.b; }\nserver { listen 127.0.0.1:8080; server_name x; }\n}\n", 3},
		{"server-name-unicode-confusables", inServer("server_name \u0430pple.com exa\u200bmple.com \ufeffbom.example;"), 0},
		{"server-name-overlong-utf8", inServer("server_name \xc0\xae\xc0\xae.example \xe0\x80\xaf \xed\xa0\x80x \xf4\x90\x80\x80;\nlocation /\xc0\xaf { return 200; }"), 0},
		{"regex-server-names-catastrophic", inServer("server_name ~^(a+)+$ ~^(a|a)*b$ ~^((a*)*)*$ \"~^(?<x>(x+x+)+y)$\";"), 0},
		{"variable-name-10000", inServer("set $" + strings.Repeat("a", 10000) + " 1;"), 5},
		{"variable-in-braces-100000", inServer("return 200 \"${" + strings.Repeat("b", 100000) + "}\";"), 5},
		{"set-chain-3000", inServer(setChain.String() + "return 200 $v3000;"), 0},
		{"set-cycle", inServer("set $a $b;\nset $b $a;\nset $c $c$c$c$c;\nreturn 200 $a$c;"), 0},
		{"if-regex-20000-alternatives", inServer("if ($uri ~ \"^(" + strings.Join(alternatives, "|") + ")$\") { return 403; }"), 5},
		{"split-clients-negative", "events {}\nhttp {\nsplit_clients \"${remote_addr}\" $v {\n60% a;\n-5% b;\n* c;\n}\n}\n", 5},
		{"split-clients-over-100", "events {}\nhttp {\nsplit_clients \"${remote_addr}\" $v {\n60% a;\n50% b;\n0.01% c;\n}\n}\n", 7},
	}
}

// runChild runs nginx-lint (this test binary as main) with args in dir
// under a deadline, and returns its exit code and output; the code is -1
// when it did not end in time.
func runChild(t *testing.T, dir string, stdin string, args ...string) (int, string, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(ctx, exe, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "NGINX_LINT_BE_MAIN=1")
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errb
	err = cmd.Run()
	if ctx.Err() != nil {
		return -1, out.String(), errb.String()
	}
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return code, out.String(), errb.String()
}

// TestAttacks runs lint (JSON), fmt, parse, cost and --fix on each
// hostile configuration in a child process under a 60 s deadline: none
// may hang or panic, exit codes are the documented ones, every finding
// has a position, an error is reported at nginx's line when nginx
// refuses the file and none when it accepts it, fmt is idempotent and
// changes no finding, and --fix leaves what it does not rewrite as it
// was.
func TestAttacks(t *testing.T) {
	if testing.Short() {
		t.Skip("runs nginx-lint on large generated configurations")
	}
	for _, a := range attacks() {
		t.Run(a.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "nginx.conf")
			if err := os.WriteFile(path, []byte(a.conf), 0o644); err != nil {
				t.Fatal(err)
			}
			sane := func(what string, code int, out, errOut string, codes ...int) {
				t.Helper()
				if code == -1 {
					t.Fatalf("%s: no end within 60 s", what)
				}
				if strings.Contains(errOut, "panic:") || strings.Contains(errOut, "goroutine ") {
					t.Fatalf("%s panicked:\n%s", what, errOut)
				}
				for _, c := range codes {
					if code == c {
						return
					}
				}
				t.Errorf("%s: exit %d, want one of %v\n%s%s", what, code, codes, out, errOut)
			}
			code, out, errOut := runChild(t, dir, "", "--format", "json", "--no-config", "nginx.conf")
			sane("lint", code, out, errOut, exitClean, exitFindings)
			var rep struct {
				Diagnostics []struct {
					File         string
					Line, Column int
					Severity     string
					Message      string
				}
			}
			if err := json.Unmarshal([]byte(out), &rep); err != nil {
				t.Fatalf("lint output: %v\n%s", err, out)
			}
			errorAt := map[int]bool{}
			for _, d := range rep.Diagnostics {
				if d.File == "" || d.Line < 1 || d.Column < 1 {
					t.Errorf("finding without a position: %+v", d)
				}
				if len(d.Message) > 400 {
					t.Errorf("a message of %d bytes: %.80s…", len(d.Message), d.Message)
				}
				if d.Severity == "error" {
					errorAt[d.Line] = true
				}
			}
			switch {
			case a.nginxLine == 0 && len(errorAt) > 0:
				t.Errorf("nginx accepts it; errors at lines %v: %+v", errorAt, rep.Diagnostics)
			case a.nginxLine > 0 && !errorAt[a.nginxLine]:
				t.Errorf("nginx refuses line %d; errors at %v: %+v", a.nginxLine, errorAt, rep.Diagnostics)
			}

			code, once, errOut := runChild(t, dir, "", "fmt", "nginx.conf")
			sane("fmt", code, once, errOut, exitClean, exitFindings)
			if code == exitClean {
				code2, twice, errOut := runChild(t, dir, once, "fmt", "-")
				sane("fmt twice", code2, twice, errOut, exitClean)
				if twice != once {
					t.Errorf("fmt is not idempotent")
				}
				if err := os.WriteFile(filepath.Join(dir, "formatted.conf"), []byte(once), 0o644); err != nil {
					t.Fatal(err)
				}
				// Lines and columns move with the indentation; rules,
				// severities and messages stay.
				_, after, _ := runChild(t, dir, "", "--format", "json", "--no-config", "formatted.conf")
				if b, a := findingWords(t, out), findingWords(t, after); b != a {
					t.Errorf("fmt changed the findings:\nbefore %s\nafter  %s", b, a)
				}
			}
			code, _, errOut = runChild(t, dir, "", "parse", "nginx.conf")
			sane("parse", code, "", errOut, exitClean, exitFindings)
			code, out, errOut = runChild(t, dir, "", "cost", "--no-config", "nginx.conf")
			sane("cost", code, out, errOut, exitClean, exitFindings)
			code, out, errOut = runChild(t, dir, "", "--fix", "--no-config", "nginx.conf")
			sane("--fix", code, out, errOut, exitClean, exitFindings)
		})
	}
}

// findingWords is the sorted list of a JSON report's rules, severities
// and messages.
func findingWords(t *testing.T, out string) string {
	t.Helper()
	var rep struct {
		Diagnostics []struct{ Code, Severity, Message string }
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	var ws []string
	for _, d := range rep.Diagnostics {
		ws = append(ws, d.Code+" "+d.Severity+" "+d.Message)
	}
	slices.Sort(ws)
	return strings.Join(ws, "\n")
}
