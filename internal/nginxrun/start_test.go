//go:build unix

package nginxrun_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/nginx-lint/nginx-lint/analyzer/costmodel/layout"
	"github.com/nginx-lint/nginx-lint/internal/nginxrun"
	"github.com/nginx-lint/nginx-lint/parser/nginxtest"
)

func TestStartRefusesNonLoopback(t *testing.T) {
	// No Require: nginx must not even be started, so this runs anywhere.
	conf := writeConf(t, "events {}\nhttp { server { listen 80; } }\n")
	if _, err := nginxrun.Start(t.Context(), "/nonexistent/nginx", conf); !errors.Is(err, nginxrun.ErrNotLoopback) {
		t.Fatalf("Start = %v, want ErrNotLoopback", err)
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
			s.Lines = append(s.Lines, fmt.Sprintf("add_header X-Server %d;", s.Index), "location / { return 200; }")
		},
	})
	if err := os.WriteFile(conf, data, 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	inst, err := nginxrun.Start(ctx, nginx, conf)
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
	// Without a Host header the default server, the first, answers.
	if resp, err := nginxrun.GetNoHost(addr, "/"); err != nil || !strings.HasPrefix(resp, "HTTP/1.1 200 ") || !strings.Contains(resp, "X-Server: 0\r\n") {
		t.Errorf("response without a Host: %v\n%s", err, resp)
	}

	// A reload replaces every worker.
	before, err := inst.Workers()
	if err != nil {
		t.Fatal(err)
	}
	if took, err := inst.Reload(ctx); err != nil || took <= 0 {
		t.Fatalf("Reload: %v, %v", took, err)
	}
	after, err := inst.Workers()
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range after {
		if slices.Contains(before, w) {
			t.Errorf("worker %d outlived the reload (before %v, after %v)", w, before, after)
		}
	}
	if resp := get(t, addr, "perf-test-00002.example"); !strings.Contains(resp, "X-Server: 1\r\n") {
		t.Errorf("after the reload:\n%s", resp)
	}

	if err := inst.Stop(ctx); err != nil {
		t.Fatal(err)
	}
	inst = nil
	if c, err := net.DialTimeout("tcp", addr, time.Second); err == nil {
		c.Close()
		t.Errorf("%s still accepts connections after Stop", addr)
	}
	if _, err := nginxrun.Get(addr, "x", "/"); !errors.Is(err, syscall.ECONNREFUSED) {
		t.Errorf("Get after Stop: %v, want connection refused", err)
	}
}

// get sends one request with the given Host to our own nginx and returns
// the status line and headers.
func get(t *testing.T, addr, host string) string {
	t.Helper()
	resp, err := nginxrun.Get(addr, host, "/")
	if err != nil {
		t.Fatal(err)
	}
	head, _, _ := strings.Cut(resp, "\r\n\r\n")
	return head + "\r\n"
}

func TestStartFailure(t *testing.T) {
	nginx := nginxtest.Require(t)
	conf := writeConf(t, "events {}\nhttp {\n    server {\n        listen 127.1.0.1:31000;\n        bogus on;\n    }\n}\n")
	inst, err := nginxrun.Start(t.Context(), nginx, conf, nginxrun.WithTimeout(30*time.Second))
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
	if _, err := nginxrun.Start(t.Context(), "/nonexistent/nginx", conf); err == nil || !strings.Contains(err.Error(), "daemon") {
		t.Fatalf("Start = %v, want a daemon error", err)
	}
}
