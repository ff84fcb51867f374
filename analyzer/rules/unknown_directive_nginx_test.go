package rules_test

import (
	"context"
	"strings"
	"testing"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/rules"
	"github.com/nginx-lint/nginx-lint/parser"
	"github.com/nginx-lint/nginx-lint/parser/nginxtest"
)

// TestUnknownDirectiveDefaultNginx: with no target named, a directive no
// module nginx-lint knows defines is an error at the line where the real
// nginx says "unknown directive", in every context, as is a near miss of
// a known one; the same configuration without it is accepted, and no
// error is reported then.
func TestUnknownDirectiveDefaultNginx(t *testing.T) {
	nginx := nginxtest.Require(t)
	reg := rules.All()
	const base = "events {}\nhttp {\n    upstream app {\n        server 127.0.0.1:18081;\n    }\n" +
		"    server {\n        listen 127.0.0.1:18937;\n        location / {\n            return 204;\n        }\n    }\n}\n"
	cases := []struct{ what, after, line string }{
		{"main", "events {}", "frobnicate on;"},
		{"http", "http {", "frobnicate on;"},
		{"upstream", "upstream app {", "vendor_balance on;"},
		{"server", "listen 127.0.0.1:18937;", "frobnicate on;"},
		{"location", "location / {", "my_module_knob 1 2;"},
		{"near miss", "location / {", "proxy_passs http://127.0.0.1:18081;"},
		{"block", "listen 127.0.0.1:18937;", "frobnicate {\n        }"},
		{"NGINX Plus", "upstream app {", "ntlm;"},
	}
	for _, c := range cases {
		conf := strings.Replace(base, c.after, c.after+"\n    "+c.line, 1)
		res, err := nginxtest.TestData(context.Background(), nginx, []byte(conf), nginxtest.Quiet())
		if err != nil {
			t.Fatal(err)
		}
		errs := res.Errors()
		if len(errs) == 0 || !strings.HasPrefix(errs[0].Text, "unknown directive") {
			t.Errorf("%s: nginx says %v, not unknown directive:\n%s", c.what, errs, conf)
			continue
		}
		f := parser.ParseFile("/t/nginx.conf", []byte(conf), &parser.Options{Kinds: analyzer.Kinds})
		cfg := &parser.Config{Main: f, Files: []*parser.File{f}}
		found := false
		for _, d := range ruleFindings(cfg, reg, analyzer.Options{}) {
			if d.Severity == parser.Error && f.Line(int(d.Range.Start)) == errs[0].Line {
				found = found || d.Name == "unknown-directive" && strings.HasPrefix(d.Message, errs[0].Text)
			}
		}
		if !found {
			t.Errorf("%s: nginx says %q at line %d; no unknown-directive error there with no target:\n%s", c.what, errs[0].Text, errs[0].Line, conf)
		}
	}
	res, err := nginxtest.TestData(context.Background(), nginx, []byte(base), nginxtest.Quiet())
	if err != nil || len(res.Errors()) > 0 {
		t.Fatalf("nginx refuses the base: %v %v", err, res.Errors())
	}
}
