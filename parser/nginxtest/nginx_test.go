package nginxtest_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/nginx-lint/nginx-lint/cmd/nginx-lint-gen/layout"
	"github.com/nginx-lint/nginx-lint/parser/nginxtest"
)

// Tests listen below the ephemeral port range (32768-60999 on Linux) and
// away from the generator's defaults, so they neither collide with
// outgoing connections nor with benchmark runs of the default layouts.
// `nginx -t` tolerates addresses already in use, so parallel runs of the
// same test are harmless.
const (
	testPort = 31000
	testIP   = "127.1.0.1"
)

func writeConf(t *testing.T, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "nginx.conf")
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestVersion(t *testing.T) {
	nginx := nginxtest.Require(t)
	v, err := nginxtest.Version(t.Context(), nginx)
	if err != nil {
		t.Fatal(err)
	}
	if v == "" || strings.Trim(v, "0123456789.") != "" {
		t.Errorf("Version = %q, want a dotted number", v)
	}
	t.Logf("%s is nginx %s", nginx, v)
}

const tinyConf = `events {}
http {
    access_log off;
    client_body_temp_path client_body_temp;
    proxy_temp_path proxy_temp;
    fastcgi_temp_path fastcgi_temp;
    uwsgi_temp_path uwsgi_temp;
    scgi_temp_path scgi_temp;
    server {
        listen 127.1.0.1:31000;
        location / { return 200; }
    }
}
`

func TestValid(t *testing.T) {
	nginx := nginxtest.Require(t)
	conf := writeConf(t, tinyConf)
	res, err := nginxtest.Test(t.Context(), nginx, conf)
	if err != nil {
		t.Fatal(err)
	}
	if !res.OK || res.ExitCode != 0 || len(res.Messages) != 0 {
		t.Fatalf("nginx -t: OK=%v exit=%d messages=%v\n%s", res.OK, res.ExitCode, res.Messages, res.Stderr)
	}
	if !strings.Contains(res.Stderr, "test is successful") {
		t.Errorf("stderr lacks the success line:\n%s", res.Stderr)
	}
	if res.Duration <= 0 {
		t.Errorf("Duration = %v", res.Duration)
	}
	if !strings.Contains(strings.Join(res.Args, " "), "-g pid ") {
		t.Errorf("a config without pid should get one with -g: %q", res.Args)
	}

	res, err = nginxtest.Test(t.Context(), nginx, conf, nginxtest.Quiet())
	if err != nil || !res.OK || strings.TrimSpace(res.Stderr) != "" {
		t.Errorf("quiet nginx -t: err=%v OK=%v stderr=%q", err, res.OK, res.Stderr)
	}
}

func TestBroken(t *testing.T) {
	nginx := nginxtest.Require(t)
	conf := writeConf(t, "events {}\nhttp {\n    server {\n        listen 127.1.0.1:31000;\n    }\n}\n}\n")
	res, err := nginxtest.Test(t.Context(), nginx, conf)
	if err != nil {
		t.Fatal(err)
	}
	if res.OK || res.ExitCode == 0 {
		t.Fatalf("broken config passed:\n%s", res.Stderr)
	}
	want := nginxtest.Message{Level: "emerg", Text: `unexpected "}"`, File: conf, Line: 7}
	errs := res.Errors()
	if len(errs) != 1 || errs[0] != want {
		t.Fatalf("errors = %#v, want [%#v]\n%s", errs, want, res.Stderr)
	}
}

func TestConfigWithPid(t *testing.T) {
	nginx := nginxtest.Require(t)
	conf := writeConf(t, "pid my.pid;\n"+tinyConf)
	prefix := t.TempDir()
	res, err := nginxtest.Test(t.Context(), nginx, conf, nginxtest.WithPrefix(prefix))
	if err != nil || !res.OK {
		t.Fatalf("err=%v OK=%v\n%s", err, res.OK, res.Stderr)
	}
	if strings.Contains(strings.Join(res.Args, " "), "-g") {
		t.Errorf("config sets pid but nginx got -g: %q", res.Args)
	}
	// nginx -t writes the pid file, here relative to the given prefix.
	if _, err := os.Stat(filepath.Join(prefix, "my.pid")); err != nil {
		t.Error(err)
	}
}

func TestData(t *testing.T) {
	nginx := nginxtest.Require(t)
	res, err := nginxtest.TestData(t.Context(), nginx, []byte("events {}\nunknown_directive 1;\n"))
	if err != nil {
		t.Fatal(err)
	}
	errs := res.Errors()
	if res.OK || len(errs) != 1 || errs[0].Text != `unknown directive "unknown_directive"` || errs[0].Line != 2 {
		t.Fatalf("OK=%v errors=%#v\n%s", res.OK, errs, res.Stderr)
	}
}

func TestRefusesNonLoopback(t *testing.T) {
	// No Require: nginx must not even be started, so this runs anywhere.
	conf := writeConf(t, "events {}\nhttp { server { listen 80; } }\n")
	_, err := nginxtest.Test(t.Context(), "/nonexistent/nginx", conf)
	if !errors.Is(err, nginxtest.ErrNotLoopback) {
		t.Fatalf("Test = %v, want ErrNotLoopback", err)
	}
	if _, err := nginxtest.Start(t.Context(), "/nonexistent/nginx", conf); !errors.Is(err, nginxtest.ErrNotLoopback) {
		t.Fatalf("Start = %v, want ErrNotLoopback", err)
	}
}

func TestTimeout(t *testing.T) {
	nginx := nginxtest.Require(t)
	conf := writeConf(t, tinyConf)
	_, err := nginxtest.Test(t.Context(), nginx, conf, nginxtest.WithTimeout(time.Nanosecond))
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Test with 1ns timeout = %v, want DeadlineExceeded", err)
	}
}

// TestLayouts checks that nginx accepts every generated layout.
func TestLayouts(t *testing.T) {
	nginx := nginxtest.Require(t)
	for _, l := range layout.All() {
		t.Run(l.String(), func(t *testing.T) {
			t.Parallel()
			conf := filepath.Join(t.TempDir(), l.String()+".conf")
			data := layout.Generate(layout.Options{Layout: l, N: 200, BasePort: testPort, BaseIP: netip.MustParseAddr(testIP)})
			if err := os.WriteFile(conf, data, 0o644); err != nil {
				t.Fatal(err)
			}
			res, err := nginxtest.Test(t.Context(), nginx, conf)
			if err != nil {
				t.Fatal(err)
			}
			if !res.OK || len(res.Errors()) > 0 {
				t.Fatalf("nginx -t failed:\n%s", res.Stderr)
			}
			// Servers sharing an address and a name are legal but
			// reported: L3a (all named "") and L3b (all the same name)
			// get one warning per server after the first.
			warns := 0
			for _, m := range res.Messages {
				if strings.HasPrefix(m.Text, "conflicting server name") {
					warns++
				}
			}
			want := 0
			if l.Listen == layout.SharedAddr && l.Naming != layout.UniqueNames {
				want = 199
			}
			if warns != want {
				t.Errorf("%d conflicting server name warnings, want %d\n%s", warns, want, res.Stderr)
			}
			t.Logf("nginx -t: %v, %d messages", res.Duration, len(res.Messages))
		})
	}
}

// freePort returns a loopback port nothing listens on right now.
func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", testIP+":0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

func TestStartStop(t *testing.T) {
	nginx := nginxtest.Require(t)
	port := freePort(t)
	conf := filepath.Join(t.TempDir(), "nginx.conf")
	data := layout.Generate(layout.Options{
		Layout:   layout.Layout{Listen: layout.SharedAddr, Naming: layout.UniqueNames},
		N:        3,
		BasePort: port,
		BaseIP:   netip.MustParseAddr(testIP),
		Server: func(s *layout.Server) {
			s.Lines = append(s.Lines, fmt.Sprintf("add_header X-Server %d;", s.Index))
		},
	})
	if err := os.WriteFile(conf, data, 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	inst, err := nginxtest.Start(ctx, nginx, conf)
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if inst != nil {
			inst.Stop(context.Background())
		}
	}()
	t.Logf("nginx %d ready after %v", inst.Pid, inst.Ready)
	if inst.Ready <= 0 {
		t.Errorf("Ready = %v", inst.Ready)
	}

	addr := net.JoinHostPort(testIP, strconv.Itoa(port))
	resp := get(t, addr, "perf-test-00002.example")
	if !strings.HasPrefix(resp, "HTTP/1.1 200 ") || !strings.Contains(resp, "X-Server: 1\r\n") {
		t.Errorf("response from the second server:\n%s", resp)
	}

	if err := inst.Stop(ctx); err != nil {
		t.Fatal(err)
	}
	inst = nil
	if c, err := net.DialTimeout("tcp", addr, time.Second); err == nil {
		c.Close()
		t.Errorf("%s still accepts connections after Stop", addr)
	}
}

// get sends one HTTP/1.1 request with the given Host to our own nginx and
// returns the status line and headers.
func get(t *testing.T, addr, host string) string {
	t.Helper()
	c, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(5 * time.Second))
	fmt.Fprintf(c, "GET / HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n\r\n", host)
	var b strings.Builder
	buf := make([]byte, 4096)
	for {
		n, err := c.Read(buf)
		b.Write(buf[:n])
		if err != nil {
			break
		}
	}
	head, _, _ := strings.Cut(b.String(), "\r\n\r\n")
	return head + "\r\n"
}

func TestStartFailure(t *testing.T) {
	nginx := nginxtest.Require(t)
	conf := writeConf(t, "events {}\nhttp {\n    server {\n        listen 127.1.0.1:31000;\n        bogus on;\n    }\n}\n")
	inst, err := nginxtest.Start(t.Context(), nginx, conf, nginxtest.WithTimeout(30*time.Second))
	if err == nil {
		inst.Stop(context.Background())
		t.Fatal("Start succeeded on a broken config")
	}
	if !strings.Contains(err.Error(), `unknown directive "bogus"`) {
		t.Errorf("Start error lacks nginx's message: %v", err)
	}
}

func TestStartRefusesDaemon(t *testing.T) {
	conf := writeConf(t, "daemon on;\n"+tinyConf)
	if _, err := nginxtest.Start(t.Context(), "/nonexistent/nginx", conf); err == nil || !strings.Contains(err.Error(), "daemon") {
		t.Fatalf("Start = %v, want a daemon error", err)
	}
}
