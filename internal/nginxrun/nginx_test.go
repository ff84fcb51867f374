package nginxrun_test

import (
	"context"
	"errors"
	"fmt"
	"net/netip"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/nginx-lint/nginx-lint/analyzer/costmodel/layout"
	"github.com/nginx-lint/nginx-lint/internal/nginxrun"
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
	v, err := nginxrun.Version(t.Context(), nginx)
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
	res, err := nginxrun.Test(t.Context(), nginx, conf)
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
	// The peak RSS of any process is some pages (calibrate records it);
	// CPU time may round to zero for a run this small.
	if runtime.GOOS == "linux" && (res.MaxRSS < 4096 || res.CPU < 0) {
		t.Errorf("MaxRSS = %d, CPU = %v", res.MaxRSS, res.CPU)
	}
	if !strings.Contains(strings.Join(res.Args, " "), "-g pid ") {
		t.Errorf("a config without pid should get one with -g: %q", res.Args)
	}

	res, err = nginxrun.Test(t.Context(), nginx, conf, nginxrun.Quiet())
	if err != nil || !res.OK || strings.TrimSpace(res.Stderr) != "" {
		t.Errorf("quiet nginx -t: err=%v OK=%v stderr=%q", err, res.OK, res.Stderr)
	}
}

func TestBroken(t *testing.T) {
	nginx := nginxtest.Require(t)
	conf := writeConf(t, "events {}\nhttp {\n    server {\n        listen 127.1.0.1:31000;\n    }\n}\n}\n")
	res, err := nginxrun.Test(t.Context(), nginx, conf)
	if err != nil {
		t.Fatal(err)
	}
	if res.OK || res.ExitCode == 0 {
		t.Fatalf("broken config passed:\n%s", res.Stderr)
	}
	want := nginxrun.Message{Level: "emerg", Text: `unexpected "}"`, File: conf, Line: 7}
	errs := res.Errors()
	if len(errs) != 1 || errs[0] != want {
		t.Fatalf("errors = %#v, want [%#v]\n%s", errs, want, res.Stderr)
	}
}

func TestConfigWithPid(t *testing.T) {
	nginx := nginxtest.Require(t)
	conf := writeConf(t, "pid my.pid;\n"+tinyConf)
	prefix := t.TempDir()
	res, err := nginxrun.Test(t.Context(), nginx, conf, nginxrun.WithPrefix(prefix))
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
	res, err := nginxrun.TestData(t.Context(), nginx, []byte("events {}\nunknown_directive 1;\n"))
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
	_, err := nginxrun.Test(t.Context(), "/nonexistent/nginx", conf)
	if !errors.Is(err, nginxrun.ErrNotLoopback) {
		t.Fatalf("Test = %v, want ErrNotLoopback", err)
	}
}

func TestTimeout(t *testing.T) {
	nginx := nginxtest.Require(t)
	conf := writeConf(t, tinyConf)
	_, err := nginxrun.Test(t.Context(), nginx, conf, nginxrun.WithTimeout(time.Nanosecond))
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Test with 1ns timeout = %v, want DeadlineExceeded", err)
	}
}

// TestLayouts checks that nginx accepts every generated layout, at N=200
// and, for the layouts with a socket per server, past nginx's default of
// 512 worker_connections, which the generator has to raise.
func TestLayouts(t *testing.T) {
	nginx := nginxtest.Require(t)
	type run struct {
		l layout.Layout
		n int
	}
	var runs []run
	for _, l := range layout.All() {
		runs = append(runs, run{l, 200})
	}
	runs = append(runs, run{layout.Layout{Listen: layout.PortPerServer, Naming: layout.NoName}, 600},
		run{layout.Layout{Listen: layout.IPPerServer, Naming: layout.UniqueNames}, 600})
	for _, r := range runs {
		l := r.l
		t.Run(fmt.Sprintf("%v/N=%d", l, r.n), func(t *testing.T) {
			t.Parallel()
			conf := filepath.Join(t.TempDir(), l.String()+".conf")
			data := layout.Generate(layout.Options{Layout: l, N: r.n, BasePort: testPort, BaseIP: netip.MustParseAddr(testIP)})
			if err := os.WriteFile(conf, data, 0o644); err != nil {
				t.Fatal(err)
			}
			res, err := nginxrun.Test(t.Context(), nginx, conf)
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
				want = r.n - 1
			}
			if warns != want {
				t.Errorf("%d conflicting server name warnings, want %d\n%s", warns, want, res.Stderr)
			}
			t.Logf("nginx -t: %v, %d messages", res.Duration, len(res.Messages))
		})
	}
}
