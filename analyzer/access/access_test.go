package access

import (
	"strings"
	"testing"

	"github.com/nginx-lint/nginx-lint/parser"
)

// TestExposure runs access lists as ngx_http_access_handler does (first
// match decides, no match lets in) and checks which families they leave
// open to every client.
func TestExposure(t *testing.T) {
	for _, c := range []struct {
		src        string
		open4      string // "" closed, else a word of the exposure
		open6      bool
		restricted bool
	}{
		{"", "no allow/deny", true, false},
		{"allow 10.0.0.0/8; deny all;", "", false, true},
		// Private ranges are no public client.
		{"allow 10.0.0.0/8; allow 192.168.0.0/16;", "no rule matches", true, true},
		{"allow 0.0.0.0/0; deny all;", `"allow 0.0.0.0/0"`, false, true},
		// nginx clears the host bits: 1.2.3.4/1 is 0.0.0.0/1.
		{"allow 1.2.3.4/1; allow 200.0.0.0/1; deny all;", "lets them in", false, true},
		{"deny 203.0.113.0/24; allow all;", `"allow all"`, true, true},
		{"allow ::/0; deny all;", "", true, true},
		{"allow all; auth_basic x;", "", false, true},
	} {
		f := parser.ParseString("/x.conf", c.src, nil)
		// One level, merged as At merges the levels around a location.
		lvl := ReadLevel(f.Directives)
		a := evalAccess(lvl.rules)
		a.Restricted, a.satisfy = lvl.hasRules, "all"
		if lvl.auth != nil && !strings.EqualFold(lvl.auth.Args[0].Value, "off") {
			a.Auth = lvl.auth
		}
		e4, e6 := a.Exposure(IPv4), a.Exposure(IPv6)
		if c.open4 == "" && e4 != "" || c.open4 != "" && !strings.Contains(e4, c.open4) {
			t.Errorf("%q: IPv4 exposure %q, want %q", c.src, e4, c.open4)
		}
		if (e6 != "") != c.open6 {
			t.Errorf("%q: IPv6 exposure %q, want open %v", c.src, e6, c.open6)
		}
		if a.Restricted != c.restricted {
			t.Errorf("%q: restricted %v", c.src, a.Restricted)
		}
	}
}
