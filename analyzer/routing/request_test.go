package routing_test

import (
	"net/netip"
	"strings"
	"testing"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/costmodel"
	"github.com/nginx-lint/nginx-lint/analyzer/routing"
	"github.com/nginx-lint/nginx-lint/parser"
)

// model parses src as /t/nginx.conf and builds its request model.
func model(t testing.TB, src string, o routing.Options) *routing.Model {
	t.Helper()
	c := (&parser.Loader{Kinds: analyzer.Kinds, FS: &parser.Overlay{}}).LoadSource("/t/nginx.conf", []byte(src), nil)
	m := parser.BuildModel(c)
	return routing.New(m, costmodel.Compute(m, costmodel.Options{}), o)
}

func get(host, target string) routing.HTTPRequest {
	return routing.HTTPRequest{Request: routing.Request{Addr: netip.MustParseAddr("127.0.0.1"), Port: 80, Host: host}, Target: target}
}

func TestSmoke(t *testing.T) {
	m := model(t, `http { server { listen 127.0.0.1:80; server_name a;
		location / { return 200 "root"; }
		location /a/ { return 200 "a"; }
		location = /a/x { return 200 "exact"; }
		location ~ \.php$ { return 200 "php $uri"; }
		location ^~ /static/ { return 200 "static"; }
		location /r { rewrite ^/r(.*)$ /a$1 last; }
		location /t { try_files $uri @fb; }
		location @fb { return 200 "fallback $uri"; }
	} }`, routing.Options{NoFiles: true})
	for _, c := range []struct{ target, want string }{
		{"/", "root"}, {"/a/", "a"}, {"/a/x", "exact"}, {"/a/x.php", "php /a/x.php"}, {"/static/x.php", "static"},
		{"//a/../a/x", "exact"}, {"/%61/x", "exact"}, {"/r/x", "exact"}, {"/rx", "root"}, {"/t/1", "fallback /t/1"},
	} {
		a := m.Route(get("a", c.target))
		if a.Handler.Target != c.want {
			t.Errorf("%s: got %d %q %v (unsure %v)", c.target, a.Status, a.Handler.Target, a.Handler.Kind, a.Unsure)
		}
	}
}

// TestRunTimeNotesStayInTheirServer: a server's limit_req makes its
// answers that reach the preaccess phase unsure (a return answers
// before it), and no other configuration's (the setting lives in
// the level's own extra settings, never in the shared empty ones).
func TestRunTimeNotesStayInTheirServer(t *testing.T) {
	limited := model(t, `http { limit_req_zone $binary_remote_addr zone=z:1m rate=1r/s;
		server { listen 127.0.0.1:80; location / { limit_req zone=z; proxy_pass http://127.0.0.1:1; } } }`, routing.Options{})
	plain := model(t, `http { server { listen 127.0.0.1:80; location / { proxy_pass http://127.0.0.1:1; } } }`, routing.Options{})
	if a := limited.Route(get("x", "/")); len(a.Unsure) != 1 || !strings.Contains(a.Unsure[0], "limit_req") {
		t.Errorf("limited: unsure %q", a.Unsure)
	}
	if a := plain.Route(get("x", "/")); len(a.Unsure) != 0 {
		t.Errorf("plain: unsure %q", a.Unsure)
	}
}
