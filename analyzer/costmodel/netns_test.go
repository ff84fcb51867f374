//go:build linux

package costmodel_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nginx-lint/nginx-lint/analyzer/costmodel"
	"github.com/nginx-lint/nginx-lint/parser/nginxtest"
)

// Wildcard listens (listen 80; [::]:80) bind every interface of the host,
// which tests here must never do. Inside a fresh network namespace the only
// interface is loopback, so there a wildcard is as private as 127.0.0.1;
// these tests run nginx only in such a namespace (unshare -n).

// netnsCommand returns a command running argv in a new network namespace
// whose loopback is up, or skips (fails under CI) when that cannot be done.
func netnsCommand(t *testing.T, ctx context.Context, argv ...string) *exec.Cmd {
	t.Helper()
	unshare, err := exec.LookPath("unshare")
	if err != nil {
		requireTool(t, "unshare not installed (util-linux)")
	}
	ip, err := exec.LookPath("ip")
	if err != nil {
		requireTool(t, "ip not installed (apt-get install iproute2)")
	}
	if out, err := exec.Command(unshare, "-n", ip, "link", "set", "lo", "up").CombinedOutput(); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("cannot make a network namespace: %v %s", err, out)
		}
		t.Skipf("skipping: cannot make a network namespace: %v %s", err, out)
	}
	script := `"$0" link set lo up && exec "$@"`
	args := append([]string{"-n", "sh", "-c", script, ip}, argv...)
	return exec.CommandContext(ctx, unshare, args...)
}

type wildcardCase struct {
	name    string
	servers []string // listen arguments, one server each
	// startFails is set when starting nginx (not nginx -t) must fail to
	// bind, which the model reports as a bind conflict.
	startFails bool
}

func wildcardConf(servers []string) string {
	var b strings.Builder
	b.WriteString("worker_processes 1;\npid nginx.pid;\nerror_log error.log;\nevents { worker_connections 64; }\nhttp {\n    access_log off;\n")
	for i, l := range servers {
		fmt.Fprintf(&b, "    server { listen %s; server_name s%d.example; }\n", l, i)
	}
	b.WriteString("}\n")
	return b.String()
}

func wildcardCases() []wildcardCase {
	return []wildcardCase{
		{"wildcard-absorbs-specific", []string{"31000", "127.0.0.1:31000", "127.0.0.2:31000", "127.0.0.3:31000"}, false},
		{"star-absorbs-specific", []string{"*:31000", "127.0.0.5:31000"}, false},
		{"ipv6-wildcard-absorbs-loopback", []string{"[::]:31000", "[::1]:31000"}, false},
		{"wildcard-and-other-port", []string{"31000", "127.0.0.2:31001", "127.0.0.3:31001"}, false},
		{"bind-next-to-wildcard", []string{"31000", "127.0.0.2:31000 bind"}, true},
		{"backlog-next-to-wildcard", []string{"31000", "127.0.0.2:31000 backlog=128"}, true},
		{"reuseport-on-both", []string{"31000 reuseport", "127.0.0.2:31000 reuseport"}, false},
	}
}

// TestWildcardSockets: for wildcard layouts, the sockets the model predicts
// equal the bind() calls of nginx -t, and a start fails exactly when the
// model reports a bind conflict.
func TestWildcardSockets(t *testing.T) {
	ngx := nginxtest.Require(t)
	strace, err := exec.LookPath("strace")
	if err != nil {
		requireTool(t, "strace not installed (apt-get install strace)")
	}
	for _, tc := range wildcardCases() {
		t.Run(tc.name, func(t *testing.T) {
			src := wildcardConf(tc.servers)
			r := costmodel.Compute(model(t, src), costmodel.Options{})
			dir := t.TempDir()
			if err := os.Mkdir(filepath.Join(dir, "logs"), 0o755); err != nil {
				t.Fatal(err)
			}
			conf := filepath.Join(dir, "nginx.conf")
			if err := os.WriteFile(conf, []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()

			trace := filepath.Join(dir, "trace")
			cmd := netnsCommand(t, ctx, strace, "-f", "-qq", "-e", "trace=bind", "-o", trace, ngx, "-t", "-q", "-p", dir+"/", "-c", conf)
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("nginx -t: %v\n%s", err, out)
			}
			// nginx -t tries every socket but forgives EADDRINUSE (it does
			// not set SO_REUSEPORT either), which is why it misses the
			// conflicts a start then hits: count attempts.
			attempts, ok := countBindAttempts(t, trace)
			if attempts != r.Counts.SocketsTest {
				t.Errorf("nginx -t tried %d binds, the model predicts %d sockets", attempts, r.Counts.SocketsTest)
			}
			if tc.startFails && ok == attempts {
				t.Errorf("every bind of nginx -t succeeded, yet the case is a conflict")
			}

			// Start nginx in the foreground in its own namespace: it
			// either binds everything (then it is stopped by its pid) or
			// gives up after its bind retries.
			// nginx -t leaves its pid file behind: remove it, so the file
			// appearing means the start got that far.
			pidFile := filepath.Join(dir, "nginx.pid")
			if err := os.Remove(pidFile); err != nil && !os.IsNotExist(err) {
				t.Fatal(err)
			}
			start := netnsCommand(t, ctx, ngx, "-p", dir+"/", "-c", conf, "-g", "daemon off;")
			var out strings.Builder
			start.Stdout, start.Stderr = &out, &out
			if err := start.Start(); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- start.Wait() }()
			// nginx writes its pid file once every socket is bound; a
			// failed bind makes it retry (5 × 500 ms) and exit.
			var failed bool
		wait:
			for {
				select {
				case <-done:
					failed = true
					break wait
				case <-time.After(50 * time.Millisecond):
					if _, err := os.Stat(pidFile); err == nil {
						// Started: stop it by its pid (the process we ran).
						_ = start.Process.Signal(os.Interrupt)
						select {
						case <-done:
						case <-time.After(10 * time.Second):
							_ = start.Process.Kill()
							<-done
						}
						break wait
					}
				}
			}
			if failed != tc.startFails {
				t.Errorf("start failed = %v, want %v\n%s", failed, tc.startFails, out.String())
			}
			if failed && !strings.Contains(out.String(), "Address already in use") {
				t.Errorf("start failed for another reason:\n%s", out.String())
			}
			if predicted := len(r.Conflicts) > 0; predicted != tc.startFails {
				t.Errorf("model bind conflict = %v, want %v (%+v)", predicted, tc.startFails, r.Conflicts)
			}
		})
	}
}

// countBindAttempts counts the bind() calls on inet sockets in an strace
// log, and how many of them succeeded.
func countBindAttempts(t *testing.T, path string) (attempts, ok int) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(b), "\n") {
		if !strings.Contains(l, "bind(") || !strings.Contains(l, "AF_INET") {
			continue
		}
		attempts++
		if strings.HasSuffix(strings.TrimSpace(l), "= 0") {
			ok++
		}
	}
	return attempts, ok
}
