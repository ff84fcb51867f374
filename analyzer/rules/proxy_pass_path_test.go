package rules

import "testing"

// TestProxyPassPath checks how a proxy_pass URL is cut into its URI part
// and whether a variable follows the host.
func TestProxyPassPath(t *testing.T) {
	for _, c := range []struct {
		in       string
		path     string
		vars, ok bool
	}{
		{"http://app", "", false, true},
		{"http://app/", "/", false, true},
		{"http://127.0.0.1:8080/api/v1", "/api/v1", false, true},
		{"http://app/x$1", "/x", true, true},
		{"http://$host/x", "", true, true},
		{"http://app$request_uri", "", true, true},
		{"$backend", "", false, false},
		{"$backend/x/y", "/x/y", false, true},
		{"$backend/x$uri", "/x", true, true},
		{"$a$b", "", true, true},
		{"${scheme}://app/p", "://app/p", false, true},
		{"http://unix:/run/app.sock:/uri", "/uri", false, true},
		{"http://unix:/run/app.sock", "", false, true},
		{"http://unix:/run/app.sock:x", "", false, true},
		{"app/x", "", false, false},
		{"", "", false, false},
		{"http://a/cost$", "/cost$", false, true},
	} {
		path, vars, ok := proxyPassPath(c.in)
		if path != c.path || vars != c.vars || ok != c.ok {
			t.Errorf("proxyPassPath(%q) = %q, %v, %v; want %q, %v, %v", c.in, path, vars, ok, c.path, c.vars, c.ok)
		}
	}
}
