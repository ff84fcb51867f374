//go:build linux

package costmodel_test

import (
	"bufio"
	"context"
	"fmt"
	"net/netip"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/nginx-lint/nginx-lint/analyzer/costmodel"
	"github.com/nginx-lint/nginx-lint/analyzer/costmodel/layout"
	"github.com/nginx-lint/nginx-lint/parser/nginxtest"
)

// These tests hold the model against the real nginx (skipped when none is
// installed; see nginxtest.Require). Every configuration is loopback-only
// and runs under a temporary prefix; a started nginx is stopped by its
// pid. Wildcard listens (0.0.0.0, [::]) would bind every interface, so
// the wildcard-absorbs-specific and bind-conflict cases are covered by the
// model's unit tests only.

// socketCase is a generated layout with the sockets the model predicts.
type socketCase struct {
	name string
	opts layout.Options
}

func socketCases() []socketCase {
	lay := func(s string) layout.Layout { l, _ := layout.ParseName(s); return l }
	bind := func(s *layout.Server) { s.ListenParams = append(s.ListenParams, "bind") }
	reuse := func(s *layout.Server) { s.ListenParams = append(s.ListenParams, "reuseport") }
	v6 := netip.MustParseAddr("::1")
	return []socketCase{
		{"ports", layout.Options{Layout: lay("L1c"), N: 40, BasePort: 31000}},
		{"ips", layout.Options{Layout: lay("L2c"), N: 40, BasePort: 31000}},
		{"shared", layout.Options{Layout: lay("L3c"), N: 40, BasePort: 31000}},
		{"ips-bind", layout.Options{Layout: lay("L2a"), N: 40, BasePort: 31000, Server: bind}},
		{"reuseport-4-workers", layout.Options{Layout: lay("L1c"), N: 30, BasePort: 31000, WorkerProcesses: 4, Server: reuse}},
		{"ipv6-loopback", layout.Options{Layout: lay("L1c"), N: 30, BasePort: 31000, BaseIP: v6}},
		{"ipv6-shared-reuseport", layout.Options{Layout: lay("L3b"), N: 30, BasePort: 31000, BaseIP: v6, WorkerProcesses: 3,
			Server: func(s *layout.Server) {
				// nginx allows socket options once per address.
				if s.Index == 0 {
					reuse(s)
				}
			}}},
		{"mixed-families", layout.Options{Layout: lay("L3c"), N: 20, BasePort: 31000, Server: func(s *layout.Server) {
			if s.Index%2 == 1 {
				s.Listen = "[::1]:31000"
			}
			if s.Index%4 == 3 {
				s.Listen = fmt.Sprintf("127.0.0.%d:31000", 2+s.Index)
			}
		}}},
	}
}

func writeConf(t *testing.T, src []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "nginx.conf")
	if err := os.WriteFile(path, src, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestSocketsTestMode counts the bind() calls of nginx -t with strace.
func TestSocketsTestMode(t *testing.T) {
	ngx := nginxtest.Require(t)
	strace, err := exec.LookPath("strace")
	if err != nil {
		requireTool(t, "strace not installed (apt-get install strace)")
	}
	for _, tc := range socketCases() {
		t.Run(tc.name, func(t *testing.T) {
			src := layout.Generate(tc.opts)
			want := costmodel.Compute(model(t, string(src)), costmodel.Options{}).Counts.SocketsTest
			conf := writeConf(t, src)
			if err := nginxtest.CheckLoopback(conf); err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			if err := os.Mkdir(filepath.Join(dir, "logs"), 0o755); err != nil {
				t.Fatal(err)
			}
			trace := filepath.Join(dir, "trace")
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, strace, "-f", "-qq", "-e", "trace=bind", "-o", trace,
				ngx, "-t", "-q", "-p", dir+"/", "-c", conf)
			if out, err := cmd.CombinedOutput(); err != nil {
				if strings.Contains(string(out), "ptrace") {
					t.Skipf("skipping: strace cannot trace here: %s", out)
				}
				t.Fatalf("nginx -t: %v\n%s", err, out)
			}
			got := countBinds(t, trace)
			t.Logf("nginx -t bind() calls %d, predicted %d", got, want)
			if got != want {
				t.Errorf("nginx -t bound %d sockets, the model predicts %d", got, want)
			}
		})
	}
}

// countBinds counts the bind() calls on inet sockets in an strace log
// that bound or found the address in use: nginx -t goes on past
// EADDRINUSE (ngx_open_listening_sockets ignores it in test mode), so a
// port another program holds on this machine is still a call the model
// counts, not a socket fewer.
func countBinds(t *testing.T, path string) int {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	n := 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		l := sc.Text()
		if strings.Contains(l, "bind(") && (strings.Contains(l, "AF_INET")) && (strings.HasSuffix(strings.TrimSpace(l), "= 0") || strings.Contains(l, "EADDRINUSE")) {
			n++
		}
	}
	return n
}

// TestSocketsAtStart starts nginx and counts the listening sockets its
// master holds (ss -ltnp), which includes the reuseport clones.
func TestSocketsAtStart(t *testing.T) {
	ngx := nginxtest.Require(t)
	ssPath, err := exec.LookPath("ss")
	if err != nil {
		requireTool(t, "ss not installed (apt-get install iproute2)")
	}
	for _, tc := range socketCases() {
		t.Run(tc.name, func(t *testing.T) {
			src := layout.Generate(tc.opts)
			want := costmodel.Compute(model(t, string(src)), costmodel.Options{}).Counts.SocketsStart
			conf := writeConf(t, src)
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			inst, err := nginxtest.Start(ctx, ngx, conf)
			if err != nil {
				t.Fatal(err)
			}
			defer func() {
				if err := inst.Stop(context.Background()); err != nil {
					t.Error(err)
				}
			}()
			out, err := exec.CommandContext(ctx, ssPath, "-ltnpH").Output()
			if err != nil {
				t.Skipf("skipping: ss -ltnp: %v", err)
			}
			tag := "pid=" + strconv.Itoa(inst.Pid) + ","
			got := 0
			for _, l := range strings.Split(string(out), "\n") {
				if strings.Contains(l, tag) {
					got++
				}
			}
			t.Logf("listening sockets at start %d, predicted %d", got, want)
			if got != want {
				t.Errorf("nginx holds %d listening sockets, the model predicts %d\n%s", got, want, out)
			}
		})
	}
}

// TestHashAgainstNginx compares the predicted server_names hash outcome
// with nginx -t's warning, at the defaults, at the fix and just below it.
func TestHashAgainstNginx(t *testing.T) {
	ngx := nginxtest.Require(t)
	l, _ := layout.ParseName("L3c")
	for _, tc := range []struct {
		name string
		n    int
		http []string
	}{
		{"defaults-200", 200, nil},
		{"defaults-2000", 2000, nil},
		{"max-3202", 2000, []string{"server_names_hash_max_size 3202;"}},
		{"max-3201", 2000, []string{"server_names_hash_max_size 3201;"}},
		{"bucket-128", 2000, []string{"server_names_hash_bucket_size 128;"}},
		{"bucket-256", 2000, []string{"server_names_hash_bucket_size 256;"}},
		// The benchmark's 19,900 names: the fixes the model computes, and
		// one cache line less than the bucket fix.
		{"19900-max-49152", 19900, []string{"server_names_hash_max_size 49152;"}},
		{"19900-bucket-1728", 19900, []string{"server_names_hash_bucket_size 1728;"}},
		{"19900-bucket-1664", 19900, []string{"server_names_hash_bucket_size 1664;"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.n > 5000 && testing.Short() {
				t.Skip("skipping the 19,900-server cases in -short mode")
			}
			src := layout.Generate(layout.Options{Layout: l, N: tc.n, BasePort: 31000, HTTP: tc.http})
			r := costmodel.Compute(model(t, string(src)), costmodel.Options{})
			res, err := nginxtest.TestData(context.Background(), ngx, src)
			if err != nil {
				t.Fatal(err)
			}
			warned := strings.Contains(res.Stderr, "could not build optimal server_names_hash")
			predicted := r.Hashes[0].Outcome == costmodel.HashWarning
			t.Logf("nginx warned %v, predicted %v", warned, predicted)
			if warned != predicted {
				t.Errorf("nginx warned: %v, predicted: %v (%s)\n%s", warned, predicted, r.Hashes[0].Outcome, res.Stderr)
			}
			if warned && !strings.Contains(res.Stderr, r.Hashes[0].Message) {
				t.Errorf("message differs:\nnginx: %s\nmodel: %s", res.Stderr, r.Hashes[0].Message)
			}
		})
	}
}

// TestWorkerConnectionsAgainstNginx checks the predicted limit message.
func TestWorkerConnectionsAgainstNginx(t *testing.T) {
	ngx := nginxtest.Require(t)
	l, _ := layout.ParseName("L1c")
	for _, wc := range []int{10, 11} {
		src := layout.Generate(layout.Options{Layout: l, N: 10, BasePort: 31000, WorkerConnections: wc})
		r := costmodel.Compute(model(t, string(src)), costmodel.Options{})
		res, err := nginxtest.TestData(context.Background(), ngx, src)
		if err != nil {
			t.Fatal(err)
		}
		lim := r.Limits[0]
		if res.OK != lim.OK {
			t.Errorf("worker_connections %d: nginx ok %v, predicted %v\n%s", wc, res.OK, lim.OK, res.Stderr)
		}
		if !lim.OK && !strings.Contains(res.Stderr, lim.Message) {
			t.Errorf("message %q not in %s", lim.Message, res.Stderr)
		}
	}
}

// requireTool skips a test whose tool is missing, except under CI=true,
// where .ci/run installs it and its absence is a failure.
func requireTool(t *testing.T, why string) {
	t.Helper()
	if os.Getenv("CI") == "true" {
		t.Fatal(why + "; CI must install it")
	}
	t.Skip("skipping: " + why)
}
