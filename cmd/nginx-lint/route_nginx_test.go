//go:build unix

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/nginx-lint/nginx-lint/internal/report"
	"github.com/nginx-lint/nginx-lint/parser/nginxtest"
)

// TestRouteCommandAgainstNginx runs `nginx-lint route --format json`
// on generated configurations where every location answers with its own
// line, and sends the same URLs to the real nginx on loopback: the
// status, the location's line and the Location of redirects agree.
func TestRouteCommandAgainstNginx(t *testing.T) {
	ngx := nginxtest.Require(t)
	rng := rand.New(rand.NewPCG(uint64(os.Getpid()), 7))
	paths := []string{"/", "/a", "/a/", "/a/b", "/ab", "= /a", "= /a/b", "^~ /b", "~ ^/a/", "~* \\.PNG$", "~ /c$", "/b/c", "= /"}
	targets := []string{"/", "/a", "/a/", "/a/b", "/ab", "/b", "/b/c", "/x.png", "/a/x.PNG", "/c", "/a/c", "//a/./b", "/a/%2E%2E/ab",
		"/%61/b", "/a/b/..", "/../x", "/a%00", "/b/c?x=1"}
	for round := range 4 {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		port := l.Addr().(*net.TCPAddr).Port
		l.Close()
		dir := t.TempDir()
		// Run as root, nginx's workers are nobody: 0700 would answer 403.
		for _, p := range []string{filepath.Dir(dir), dir} {
			if err := os.Chmod(p, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		var b strings.Builder
		b.WriteString("worker_processes 1;\nerror_log error.log;\npid nginx.pid;\nevents {}\nhttp {\n    access_log off;\n    absolute_redirect off;\n" +
			"    client_body_temp_path cb; proxy_temp_path pt; fastcgi_temp_path ft; uwsgi_temp_path ut; scgi_temp_path st;\n")
		line := 9
		var hosts []string
		for s := range 2 {
			name := fmt.Sprintf("s%d.example", s)
			hosts = append(hosts, name)
			fmt.Fprintf(&b, "    server {\n        listen 127.0.0.1:%d;\n        server_name %s;\n", port, name)
			line += 3
			seen := map[string]bool{}
			for range 4 + rng.IntN(5) {
				p := paths[rng.IntN(len(paths))]
				if seen[p] {
					continue
				}
				seen[p] = true
				fmt.Fprintf(&b, "        location %s { return 200 \"L%d\"; }\n", p, line)
				line++
			}
			b.WriteString("    }\n")
			line++
		}
		b.WriteString("}\n")
		conf := filepath.Join(dir, "nginx.conf")
		if err := os.WriteFile(conf, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		inst, err := nginxtest.Start(context.Background(), ngx, conf, nginxtest.WithPrefix(dir))
		if err != nil {
			t.Fatal(err)
		}
		var urls []string
		type probe struct{ host, target string }
		var ps []probe
		for _, h := range append(hosts, "unknown.example") {
			for _, tg := range targets {
				urls = append(urls, "http://"+h+":"+strconv.Itoa(port)+tg)
				ps = append(ps, probe{h, tg})
			}
		}
		code, out, errs := runCLI(t, "", append([]string{"route", "--format", "json", "--no-files", conf}, urls...)...)
		if code != exitClean {
			t.Fatalf("exit %d: %s", code, errs)
		}
		var answers []report.Route
		if err := json.Unmarshal([]byte(out), &answers); err != nil {
			t.Fatal(err)
		}
		for i, p := range ps {
			got, err := nginxtest.Send(fmt.Sprintf("127.0.0.1:%d", port), p.host, p.target)
			if err != nil {
				t.Fatal(err)
			}
			a := answers[i]
			want := nginxtest.Response{Status: a.Status}
			if a.Status == 200 && a.Location != nil {
				want.Body = fmt.Sprintf("L%d", a.Location.Line)
			}
			if a.Handler.Kind == "redirect" {
				want.Location = a.Handler.Target
			}
			if got.Status != 200 {
				got.Body = ""
			}
			if got != want {
				t.Errorf("round %d, Host %s, %q: nginx %+v, nginx-lint route %+v (%s)", round, p.host, p.target, got, want, a.Handler.Text)
			}
		}
		if err := inst.Stop(context.Background()); err != nil {
			t.Error(err)
		}
		if t.Failed() {
			t.Logf("configuration:\n%s", b.String())
			break
		}
	}
}
