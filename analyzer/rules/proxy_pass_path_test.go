package rules

import "testing"

// TestProxyPassPath checks how a proxy_pass URL is cut into its URI part
// (ngxparse.ParsePass's, as written when the URL has variables) and
// whether nginx builds it from variables past one that starts it.
func TestProxyPassPath(t *testing.T) {
	for _, c := range []struct {
		in       string
		path     string
		vars, ok bool
	}{
		{"http://app", "", false, true},
		{"http://app/", "/", false, true},
		{"http://127.0.0.1:8080/api/v1", "/api/v1", false, true},
		{"http://app/x$1", "/x$1", true, true},
		{"http://$host/x", "/x", true, true},
		{"http://app$request_uri", "", true, true},
		{"$backend", "", false, false},
		{"$backend/x/y", "/x/y", false, true},
		{"$backend/x$uri", "", true, true},
		{"$a$b", "", true, true},
		// The variable is the scheme: the URI part is what follows the host.
		{"${scheme}://app/p", "/p", false, true},
		{"http://unix:/run/app.sock:/uri", "/uri", false, true},
		{"http://unix:/run/app.sock", "", false, true},
		// ngx_parse_url's URI part of a unix socket is what follows its ":".
		{"http://unix:/run/app.sock:x", "x", false, true},
		{"app/x", "", false, false},
		{"", "", false, false},
		// A "$" makes nginx compile the URL (and refuse this one, a "$"
		// with no name): no URI part of text.
		{"http://a/cost$", "/cost$", true, true},
		{"$backend:8080", "", false, false},
	} {
		path, vars, ok := proxyPassPath(c.in)
		if path != c.path || vars != c.vars || ok != c.ok {
			t.Errorf("proxyPassPath(%q) = %q, %v, %v; want %q, %v, %v", c.in, path, vars, ok, c.path, c.vars, c.ok)
		}
	}
}
