//go:build unix

package rules_test

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/nginx-lint/nginx-lint/analyzer/analysistest"
	"github.com/nginx-lint/nginx-lint/analyzer/rules"
	"github.com/nginx-lint/nginx-lint/parser/nginxtest"
)

// TestSecurityRulesAgainstNginx runs the real nginx on the patterns that
// unreachable-location, access-list-logic and rewrite-bypasses-allow-deny
// report and checks that nginx
// behaves as their messages say: the shadowed location never answers, the
// deny after "allow all" never denies, the redirect comes before the
// deny, and the rules do fire on the very
// same configuration.
func TestSecurityRulesAgainstNginx(t *testing.T) {
	nginx := nginxtest.Require(t)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	dir := t.TempDir()
	conf := filepath.Join(dir, "nginx.conf")
	text := fmt.Sprintf(`events {}
http {
    access_log off;
    server {
        listen 127.0.0.1:%d;
        location ~ /api {
            return 200 "first\n";
        }
        location ~ /api/v1 {
            return 200 "second\n";
        }
        location ^~ /static/ {
            return 200 "prefix\n";
        }
        location ~ ^/static/img/ {
            return 200 "regex\n";
        }
        location /open/ {
            allow all;
            deny 127.0.0.1;
            try_files /nonexistent =204;
        }
        location /moved/ {
            deny all;
            rewrite ^ http://example.test/ permanent;
        }
    }
}
`, port)
	if err := os.WriteFile(conf, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}

	analysistest.Registry = rules.All()
	found := map[string]bool{}
	for _, d := range analysistest.Lint(t, conf, rules.UnreachableLocation, rules.AccessListLogic, rules.RewriteBypassesAllowDeny) {
		found[d.Name] = true
	}
	for _, name := range []string{"unreachable-location", "access-list-logic", "rewrite-bypasses-allow-deny"} {
		if !found[name] {
			t.Errorf("%s does not fire on the configuration", name)
		}
	}

	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	inst, err := nginxtest.Start(ctx, nginx, conf)
	if err != nil {
		t.Fatal(err)
	}
	defer inst.Stop(context.Background())
	addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
	for _, c := range []struct{ path, want string }{
		{"/api/v1/users", "first"},      // ~ /api matches first
		{"/static/img/a.png", "prefix"}, // ^~ ends the search
		{"/open/x", " 204 "},            // allow all wins over the later deny
		{"/moved/x", " 301 "},           // the redirect comes before deny all
	} {
		if got := request(t, addr, c.path); !strings.Contains(got, c.want) {
			t.Errorf("GET %s:\n%s\nwant %q", c.path, got, c.want)
		}
	}
}

// request sends one GET to our own nginx and returns the whole response.
func request(t *testing.T, addr, path string) string {
	t.Helper()
	resp, err := nginxtest.Get(addr, "localhost", path)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}
