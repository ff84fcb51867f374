package nginxrun

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/nginx-lint/nginx-lint/internal/testfiles"
)

func TestTokenize(t *testing.T) {
	const conf = `# comment
a "b c" 'd;e' f\;g;  # trailing comment
set $x ${y}z;
return 200}x ;
h "q\"q" \t\x {
}
log x#y;
i "j")k;
`
	var got []string
	tokenize([]byte(conf), func(ev event) bool {
		switch ev.kind {
		case evClose:
			got = append(got, "}")
		case evBlock:
			got = append(got, strings.Join(ev.args, "|")+" {")
		default:
			got = append(got, strings.Join(ev.args, "|")+";")
		}
		return true
	})
	want := []string{
		// nginx keeps the backslash of escapes other than \" \' \\ \t \r \n.
		"a|b c|d;e|f\\;g;",
		"set|$x|${y}z;",
		"return|200}x;",
		"h|q\"q|\t\\x {",
		"}",
		"log|x#y;",
		"i|j|)k;",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("tokenize:\n got %q\nwant %q", got, want)
	}
}

func TestTokenizeStopsAtErrors(t *testing.T) {
	for _, conf := range []string{"a; ; b;", `a; "x"y; b;`, "a { b } c;"} {
		n := 0
		tokenize([]byte(conf), func(event) bool { n++; return true })
		if n != 1 {
			t.Errorf("%q: %d statements before stopping, want 1", conf, n)
		}
	}
}

func TestLoopbackListen(t *testing.T) {
	ok := []string{"127.0.0.1:80", "127.3.4.5:8080", "127.0.0.1", "[::1]:80", "[::1]", "localhost:80",
		"LOCALHOST", "unix:/tmp/x.sock", "[::ffff:127.0.0.1]:80"}
	bad := []string{"80", "*:80", "*", "0.0.0.0:80", "[::]:80", "10.0.0.1:80", "example.com:80",
		"example.com", "[::1:80", "128.0.0.1:80", ""}
	for _, a := range ok {
		if !loopbackListen(a) {
			t.Errorf("loopbackListen(%q) = false", a)
		}
	}
	for _, a := range bad {
		if loopbackListen(a) {
			t.Errorf("loopbackListen(%q) = true", a)
		}
	}
	for target, want := range map[string]bool{
		"logs/error.log":                         true,
		"stderr":                                 true,
		"syslog:server=127.0.0.1":                true,
		"syslog:server=[::1]:514,tag=x":          true,
		"syslog:server=unix:/dev/log":            true,
		"syslog:facility=local7,server=10.1.1.1": false,
		"syslog:server=logs.example.com:514":     false,
	} {
		if got := loopbackSyslog(target); got != want {
			t.Errorf("loopbackSyslog(%q) = %v, want %v", target, got, want)
		}
	}
}

func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	testfiles.Write(t, dir, files)
	return dir
}

func TestCheckLoopback(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		// problems are substrings of the expected problems, in order;
		// none means the configuration passes.
		problems []string
	}{
		{"loopback", map[string]string{"nginx.conf": `events {} http {
			server { listen 127.0.0.1:8080; listen [::1]:8080 ipv6only=on; }
			server { listen "127.0.0.2:8080"; }
			upstream u { server 10.0.0.1:80; }
			map $a $b { listen 1; server 2; }
			}`}, nil},
		{"wildcards", map[string]string{"nginx.conf": `events {}
			http { server { listen 80; } server { listen *:8080; } server { listen [::]:80; } }
			stream { server { listen 53 udp; } }`},
			[]string{"nginx.conf:2: listen 80 ", "nginx.conf:2: listen *:8080", "listen [::]:80", "nginx.conf:3: listen 53"}},
		{"no listen", map[string]string{"nginx.conf": "events {}\nhttp {\n  server {\n    server_name x;\n  }\n}\n"},
			[]string{"nginx.conf:3: http server without listen"}},
		{"listen in include", map[string]string{
			"nginx.conf":      "events {}\nhttp { include servers/*.conf; server { include listen.inc; } }",
			"listen.inc":      "listen 127.0.0.1:81;",
			"servers/a.conf":  "server { listen 127.0.0.1:82; }",
			"servers/b.conf":  "server { listen 192.0.2.1:82; }",
			"servers/c.other": "server { listen 0.0.0.0:82; }",
		}, []string{"servers/b.conf:1: listen 192.0.2.1:82"}},
		{"remote syslog", map[string]string{"nginx.conf": "error_log syslog:server=192.0.2.7;\nevents {}\n"},
			[]string{"nginx.conf:1: error_log syslog:server=192.0.2.7"}},
		{"broken but loopback", map[string]string{"nginx.conf": "events {}\nhttp {\n server { listen 127.0.0.1:80; }\n}\n}\n"}, nil},
		{"include cycle", map[string]string{"nginx.conf": "include nginx.conf;\nevents {}\n"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := writeFiles(t, tt.files)
			err := CheckLoopback(filepath.Join(dir, "nginx.conf"))
			if len(tt.problems) == 0 {
				if err != nil {
					t.Fatalf("CheckLoopback: %v", err)
				}
				return
			}
			if !errors.Is(err, ErrNotLoopback) {
				t.Fatalf("CheckLoopback = %v, want ErrNotLoopback", err)
			}
			lines := strings.Split(err.Error(), "\n\t")[1:]
			if len(lines) != len(tt.problems) {
				t.Fatalf("got %d problems, want %d:\n%v", len(lines), len(tt.problems), err)
			}
			for i, want := range tt.problems {
				if !strings.Contains(lines[i], want) {
					t.Errorf("problem %d = %q, want it to contain %q", i, lines[i], want)
				}
			}
		})
	}
}

func TestScanMain(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"nginx.conf": "include main.inc;\nevents { pid no; }\n",
		"main.inc":   "pid run/x.pid;\ndaemon off;\n",
	})
	sc, err := scanConfig(filepath.Join(dir, "nginx.conf"))
	if err != nil {
		t.Fatal(err)
	}
	if got := sc.main["pid"]; !reflect.DeepEqual(got, []string{"run/x.pid"}) {
		t.Errorf("pid = %q", got)
	}
	if got := sc.main["daemon"]; !reflect.DeepEqual(got, []string{"off"}) {
		t.Errorf("daemon = %q", got)
	}
}

func TestParseMessages(t *testing.T) {
	out := `2026/12/02 14:00:31 [emerg] 6942#6942: unexpected "}" in /tmp/x y/b.conf:7
nginx: configuration file /tmp/b.conf test failed
nginx: [warn] could not build optimal server_names_hash, you should increase either server_names_hash_max_size: 512 or server_names_hash_bucket_size: 64; ignoring server_names_hash_bucket_size
nginx: [emerg] host not found in upstream "backend:80" in /etc/nginx/nginx.conf:12
nginx: the configuration file /tmp/b.conf syntax is ok
2026/12/02 14:00:31 [notice] 1#0: signal process started
`
	want := []Message{
		{Level: "emerg", Text: `unexpected "}"`, File: "/tmp/x y/b.conf", Line: 7},
		{Level: "warn", Text: "could not build optimal server_names_hash, you should increase either server_names_hash_max_size: 512 or server_names_hash_bucket_size: 64; ignoring server_names_hash_bucket_size"},
		{Level: "emerg", Text: `host not found in upstream "backend:80"`, File: "/etc/nginx/nginx.conf", Line: 12},
		{Level: "notice", Text: "signal process started"},
	}
	got := ParseMessages(out)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("ParseMessages:\n got %#v\nwant %#v", got, want)
	}
	if s := want[0].String(); s != `nginx: [emerg] unexpected "}" in /tmp/x y/b.conf:7` {
		t.Errorf("String() = %q", s)
	}
	if !want[0].IsError() || want[1].IsError() {
		t.Error("IsError wrong")
	}
}

func TestFind(t *testing.T) {
	t.Setenv(EnvVar, filepath.Join(t.TempDir(), "no-nginx"))
	if p, err := Find(); err == nil {
		t.Errorf("Find() with a missing $%s = %q, want an error", EnvVar, p)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv(EnvVar, exe)
	if p, err := Find(); err != nil || p != exe {
		t.Errorf("Find() = %q, %v; want %q", p, err, exe)
	}
	for _, kv := range childEnv() {
		if strings.HasPrefix(kv, EnvVar+"=") {
			t.Errorf("childEnv keeps %s", kv)
		}
	}
}
