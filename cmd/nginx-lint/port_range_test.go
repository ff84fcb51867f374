package main

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// portRangeServers is an http block of n servers that each listen on
// every port of 127.0.0.1 (listen 127.0.0.1:1-65535, nginx 1.27.3+).
func portRangeServers(n int) string {
	var b strings.Builder
	b.WriteString("events {}\nhttp {\n")
	for range n {
		b.WriteString("    server {\n        listen 127.0.0.1:1-65535;\n        return 200;\n    }\n")
	}
	b.WriteString("}\n")
	return b.String()
}

// TestPortRangeFindings: servers that share a port range get a finding
// about the range, once, not one per port (65,535 of them, 51 MB of
// JSON, and 20 s of pairwise de-duplication for two servers); with 200
// servers the findings grow with the servers, not with the ports.
func TestPortRangeFindings(t *testing.T) {
	for _, n := range []int{2, 200} {
		path := writeTemp(t, "nginx.conf", portRangeServers(n))
		code, out, errOut := runCLI(t, "", "--format", "json", path)
		if code != exitFindings {
			t.Fatalf("%d servers: exit %d: %s", n, code, errOut)
		}
		if len(out) > 1<<20 {
			t.Errorf("%d servers: %d bytes of JSON", n, len(out))
		}
		var got struct {
			Diagnostics []struct{ Name, Message string }
		}
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatal(err)
		}
		byName := map[string]int{}
		for _, d := range got.Diagnostics {
			byName[d.Name]++
			if d.Name == "implicit-default-server" && !strings.Contains(d.Message, serversText(n)+" share 127.0.0.1:1-65535 ") {
				t.Errorf("%d servers: %s", n, d.Message)
			}
		}
		if byName["implicit-default-server"] != 1 {
			t.Errorf("%d servers: %d implicit-default-server findings, want 1 for the range", n, byName["implicit-default-server"])
		}
		// One "conflicting server name" per server after the first: the
		// servers, not the ports.
		if byName["conflicting-server-name"] != n-1 || len(got.Diagnostics) > n+10 {
			t.Errorf("%d servers: %d findings: %v", n, len(got.Diagnostics), byName)
		}
	}
}

func serversText(n int) string { return strconv.Itoa(n) + " servers" }

// BenchmarkLintPortRanges lints 2 and 200 servers that listen on
// 127.0.0.1:1-65535 (before: 19.8 s and 48 s).
func BenchmarkLintPortRanges(b *testing.B) {
	for _, n := range []int{2, 200} {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			path := filepath.Join(b.TempDir(), "nginx.conf")
			if err := os.WriteFile(path, []byte(portRangeServers(n)), 0o644); err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				if code := run([]string{"--no-config", "--format", "json", path}, strings.NewReader(""), io.Discard, io.Discard); code != exitFindings {
					b.Fatalf("exit %d", code)
				}
			}
		})
	}
}

// cutRangeConfig is a server on 127.0.0.1:1000-2000 (TCP with ssl, and
// QUIC) whose range 50 servers on single ports inside it cut into 101
// runs, and a last server on the whole range that repeats its name.
func cutRangeConfig() string {
	var b strings.Builder
	b.WriteString("worker_processes auto;\nevents {}\nhttp {\n")
	b.WriteString("    server { listen 127.0.0.1:1000-2000 quic; listen 127.0.0.1:1000-2000 ssl; server_name a.example; }\n")
	for i := range 50 {
		p := strconv.Itoa(1000 + 20*i)
		b.WriteString("    server { listen 127.0.0.1:" + p + " quic; listen 127.0.0.1:" + p + " ssl; server_name s" + p + ".example; }\n")
	}
	b.WriteString("    server { listen 127.0.0.1:1000-2000 ssl; server_name a.example " + strings.Repeat("x", 80) + ".example; }\n")
	b.WriteString("}\n")
	return b.String()
}

// TestCutPortRangeFindings: a range that single ports cut into runs is
// still one listen to its author. quic-reuseport, ssl-certificate-missing,
// conflicting-server-name and implicit-default-server said what they
// found once per run (101 findings for one listen); now once, naming the
// range, and server-names-hash once per configuration.
func TestCutPortRangeFindings(t *testing.T) {
	path := writeTemp(t, "nginx.conf", cutRangeConfig())
	code, out, errOut := runCLI(t, "", "--format", "json", path)
	if code != exitFindings {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var got struct {
		Diagnostics []struct {
			Name, Message, Detail string
			Line                  int
		}
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	byName := map[string]int{}
	for _, d := range got.Diagnostics {
		byName[d.Name]++
		switch d.Name {
		case "quic-reuseport", "conflicting-server-name":
			if !strings.Contains(d.Message, " 127.0.0.1:1000-2000") {
				t.Errorf("%s: %s, want the range", d.Name, d.Message)
			}
		case "ssl-certificate-missing":
			if !strings.Contains(d.Detail, " 127.0.0.1:1000-2000,") {
				t.Errorf("%s: %s, want the range", d.Name, d.Detail)
			}
		case "implicit-default-server":
			if d.Line != 4 {
				t.Errorf("%s at line %d: %s", d.Name, d.Line, d.Message)
			}
		}
	}
	for name, want := range map[string]int{"quic-reuseport": 1, "conflicting-server-name": 1, "server-names-hash": 1,
		// The range's server is the default server of every run.
		"ssl-certificate-missing": 1,
		// TCP and QUIC.
		"implicit-default-server": 2} {
		if byName[name] != want {
			t.Errorf("%d %s findings, want %d", byName[name], name, want)
		}
	}
}

// TestStreamRangeNamesEachAddressOnce: a stream server on the TCP and
// the UDP sockets of an address says the address once.
func TestStreamRangeNamesEachAddressOnce(t *testing.T) {
	path := writeTemp(t, "nginx.conf", "events {}\nstream {\n"+
		"    server { listen 127.0.0.1:1000; listen 127.0.0.1:1000 udp; proxy_pass 127.0.0.1:1; }\n"+
		"    server { listen 127.0.0.1:1000; listen 127.0.0.1:1000 udp; proxy_pass 127.0.0.1:1; }\n}\n")
	_, out, _ := runCLI(t, "", "--format", "json", path)
	if !strings.Contains(out, `conflicting server name \"\" on 127.0.0.1:1000, ignored`) {
		t.Errorf("%s", out)
	}
}
