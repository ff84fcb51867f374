package access_test

import (
	"strings"
	"testing"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/access"
	"github.com/nginx-lint/nginx-lint/analyzer/internal/door"
	"github.com/nginx-lint/nginx-lint/parser"
)

// phaseAt returns the access phase in force at the first stub_status of
// src, the body of a location in a server in http {}.
func phaseAt(t *testing.T, src string) access.Phase {
	t.Helper()
	f := parser.ParseString("/x/nginx.conf", "http {\n    server {\n        location /s {\n"+src+"\n            stub_status;\n        }\n    }\n}\n", nil)
	c := &parser.Config{Main: f, Files: []*parser.File{f}}
	var out *access.Phase
	probe := &analyzer.Rule{Code: "NL5997", Name: "access-probe", Title: "probe", Doc: analyzer.Doc{Text: "t", Bad: "b", Good: "g"},
		Run: func(p *analyzer.Pass) {
			blocks := analyzer.NewPerBlock(p, access.ReadLevel)
			c.Walk(func(d *parser.Directive, stack []*parser.Directive) bool {
				if out == nil && d.Is("stub_status") {
					a := access.At(blocks, stack)
					out = &a
				}
				return true
			})
		}}
	reg, err := analyzer.NewRegistry(probe)
	if err != nil {
		t.Fatal(err)
	}
	// analyzer/lint.Run, the one public run, imports the rules, which
	// import this package: the test runs its probe as lint.Run would.
	analyzer.RunRules(door.Key{}, c, reg, analyzer.Options{})
	if out == nil {
		t.Fatalf("no stub_status in %s", src)
	}
	return *out
}

// TestExposure runs access lists as ngx_http_access_handler does (first
// match decides, no match declines) under the access phase's satisfy and
// authentication, and checks which families they leave open to every
// client.
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
		// auth_basic asks everyone a password, with its user file only.
		{"allow all; auth_basic x; auth_basic_user_file /f;", "", false, true},
		{"auth_basic x;", "no allow/deny", true, false},
		// satisfy any: the access module's OK lets the client in.
		{"satisfy any; allow all; auth_basic x; auth_basic_user_file /f;", "satisfy any", true, true},
	} {
		a := phaseAt(t, c.src)
		e4, e6 := a.Exposure(access.IPv4), a.Exposure(access.IPv6)
		if c.open4 == "" && e4 != "" || c.open4 != "" && !strings.Contains(e4, c.open4) {
			t.Errorf("%q: IPv4 exposure %q, want %q", c.src, e4, c.open4)
		}
		if (e6 != "") != c.open6 {
			t.Errorf("%q: IPv6 exposure %q, want open %v", c.src, e6, c.open6)
		}
		if a.Restricted() != c.restricted {
			t.Errorf("%q: restricted %v", c.src, a.Restricted())
		}
	}
}
