package playground_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/nginx-lint/nginx-lint/internal/playground"
	"github.com/nginx-lint/nginx-lint/internal/testfiles"
)

// call runs one call and decodes its answer into out; an answer with an
// error fails the test.
func call(t *testing.T, s *playground.Session, name string, req any, out any) {
	t.Helper()
	in, err := json.Marshal(req)
	if err != nil {
		t.Fatal(err)
	}
	raw := s.Call(name, in)
	var failed struct {
		Error string `json:"error"`
	}
	if err := json.Unmarshal(raw, &failed); err != nil {
		t.Fatalf("%s: the answer is not JSON: %v\n%s", name, err, raw)
	}
	if failed.Error != "" {
		t.Fatalf("%s: %s", name, failed.Error)
	}
	if err := json.Unmarshal(raw, out); err != nil {
		t.Fatalf("%s: %v\n%s", name, err, raw)
	}
}

// site is a configuration in two files with a typo on line 7 of
// nginx.conf and "ssl_protocols TLSv1" in conf.d/tls.conf; its line 6
// holds non-ASCII text before the typo, so byte and UTF-16 offsets
// differ.
var site = map[string]string{
	"nginx.conf": `events {}
http {
    include conf.d/*.conf;
    server {
        listen 8080;
        return 200 "héllo 🌍";
        locaton / { root /var/www; }
    }
}
`,
	"conf.d/tls.conf": "ssl_protocols TLSv1 TLSv1.2;\n",
}

func TestLint(t *testing.T) {
	root := t.TempDir()
	testfiles.Write(t, root, site)
	s := playground.NewSession()
	var res playground.LintResult
	call(t, s, "lint", playground.Request{Root: root}, &res)
	if len(res.Units) != 1 || res.Units[0] != "nginx.conf" {
		t.Errorf("units %q, want [nginx.conf] (conf.d/tls.conf is included)", res.Units)
	}
	var typo, tls *playground.Finding
	for i, f := range res.Findings {
		switch {
		case f.Code == "NL2001" && f.File == "nginx.conf":
			typo = &res.Findings[i]
		case f.File == "conf.d/tls.conf" && strings.Contains(f.Message, "TLSv1"):
			tls = &res.Findings[i]
		}
	}
	if typo == nil || tls == nil {
		t.Fatalf("want the typo in nginx.conf and the protocol in conf.d/tls.conf, got %+v", res.Findings)
	}
	if typo.Line != 7 || typo.Column != 9 {
		t.Errorf("typo at %d:%d, want 7:9", typo.Line, typo.Column)
	}
	// The editor's offsets count UTF-16 code units: "é" is one, "🌍" two.
	text := site["nginx.conf"]
	at := strings.Index(text, "locaton")
	want := len(utf16.Encode([]rune(text[:at])))
	if typo.From != want || typo.To != want+len("locaton") {
		t.Errorf("typo at UTF-16 %d-%d, want %d-%d", typo.From, typo.To, want, want+len("locaton"))
	}
	if len(typo.Fix) != 1 || typo.Fix[0].Text != "location" || typo.Fix[0].File != "nginx.conf" || typo.Fix[0].From != want {
		t.Errorf("typo's fix %+v, want location at %d", typo.Fix, want)
	}
	if typo.Title == "" || !strings.Contains(typo.URL, "unknown-directive") || res.Rules["NL2001"].Text == "" {
		t.Errorf("the rule's title %q, page %q and explanation %q", typo.Title, typo.URL, res.Rules["NL2001"].Text)
	}

	// A version the target lacks: http2 on, 1.25.1's directive.
	testfiles.Write(t, root, map[string]string{"conf.d/tls.conf": "http2 on;\n"})
	call(t, s, "lint", playground.Request{Root: root, Version: "1.22.1"}, &res)
	found := false
	for _, f := range res.Findings {
		found = found || f.File == "conf.d/tls.conf" && f.Code == "NL2001" && strings.Contains(f.Target, "1.22.1")
	}
	if !found {
		t.Errorf("http2 on for nginx 1.22.1: want an unknown directive for that target, got %+v", res.Findings)
	}
}

// TestNothingOfTheMachine: the rules that read the machine (files nginx
// loads, names it resolves) stay off whatever the settings say, and a
// settings file that does not parse is a warning, not a failure.
func TestNothingOfTheMachine(t *testing.T) {
	root := t.TempDir()
	testfiles.Write(t, root, map[string]string{
		".nginx-lint.yaml": "check-files: true\n",
		"nginx.conf": "events {}\nhttp {\n    server {\n        listen 443 ssl;\n        server_name a.example;\n" +
			"        ssl_certificate /nonexistent/a.crt;\n        ssl_certificate_key /nonexistent/a.key;\n" +
			"        location / { proxy_pass http://no-such-host.invalid; }\n    }\n}\n",
	})
	s := playground.NewSession()
	var res playground.LintResult
	call(t, s, "lint", playground.Request{Root: root}, &res)
	for _, f := range res.Findings {
		if f.Name == "missing-file" || f.Name == "host-not-found" || f.Name == "unknown-user" {
			t.Errorf("a finding about the machine: %+v", f)
		}
	}
	testfiles.Write(t, root, map[string]string{".nginx-lint.yaml": "rules: [\n"})
	call(t, s, "lint", playground.Request{Root: root}, &res)
	if len(res.Warnings) == 0 {
		t.Errorf("a settings file that does not parse: want a warning")
	}
}

func TestFixAndFormat(t *testing.T) {
	root := t.TempDir()
	testfiles.Write(t, root, map[string]string{"nginx.conf": "events {}\nhttp {\nserver {\n  listen 80;\n  locaton / {\n    root /var/www\n  }\n}\n}\n"})
	s := playground.NewSession()
	var fixed playground.FixResult
	call(t, s, "fix", playground.Request{Root: root}, &fixed)
	if len(fixed.Files) != 1 || fixed.Files[0].Path != "nginx.conf" {
		t.Fatalf("fixed files %+v", fixed.Files)
	}
	text := fixed.Files[0].Text
	if !strings.Contains(text, "location / {") || !strings.Contains(text, "root /var/www;") {
		t.Errorf("fixed text:\n%s", text)
	}
	if len(fixed.Changes) < 2 {
		t.Errorf("changes %+v, want the missing ; and the typo", fixed.Changes)
	}
	// Nothing is written: the page puts the text in its editor.
	if b, _ := os.ReadFile(filepath.Join(root, "nginx.conf")); strings.Contains(string(b), "location /") {
		t.Errorf("fix wrote the file")
	}

	var f playground.FormatResult
	call(t, s, "format", playground.FormatRequest{Request: playground.Request{Root: root}, Paths: []string{"nginx.conf"}}, &f)
	if len(f.Files) != 1 || f.Files[0].Error == "" || !strings.HasPrefix(f.Files[0].Error, "the file has syntax errors: nginx.conf:") {
		t.Errorf("formatting a file with a syntax error: %+v", f.Files)
	}
	testfiles.Write(t, root, map[string]string{"nginx.conf": text, ".nginx-lint.yaml": "fmt:\n  indent: 2\n"})
	call(t, s, "format", playground.FormatRequest{Request: playground.Request{Root: root}}, &f)
	want := "events {}\nhttp {\n  server {\n    listen 80;\n    location / {\n      root /var/www;\n    }\n  }\n}\n"
	if len(f.Files) != 1 || !f.Files[0].Changed || f.Files[0].Text != want {
		t.Errorf("formatted with the settings' indent 2: %+v, want\n%s", f.Files, want)
	}
}

func TestCostOfALayout(t *testing.T) {
	s := playground.NewSession()
	var ex playground.ExampleResult
	call(t, s, "example", playground.ExampleRequest{Layout: "L2c", N: 300}, &ex)
	if n := strings.Count(ex.Text, "server {"); n != 300 {
		t.Fatalf("L2c with 300 servers has %d server blocks", n)
	}
	root := t.TempDir()
	testfiles.Write(t, root, map[string]string{"nginx.conf": ex.Text})
	var res playground.CostResult
	call(t, s, "cost", playground.Request{Root: root}, &res)
	if len(res.Estimates) != 1 {
		t.Fatalf("estimates %+v", res.Estimates)
	}
	e := res.Estimates[0]
	if e.File != "nginx.conf" || !strings.HasPrefix(e.Layout, "300 servers, 300 listens on 1 port") {
		t.Errorf("estimate of %q: %q", e.File, e.Layout)
	}
	if len(e.Times) != 3 || e.Times[1].Term != "start" || e.Times[1].Seconds <= 0 {
		t.Errorf("times %+v", e.Times)
	}
	var rep struct {
		Servers int `json:"servers"`
		WhatIfs []struct {
			Change string  `json:"change"`
			Saving float64 `json:"saving_seconds"`
		} `json:"what_ifs"`
	}
	if err := json.Unmarshal(e.Report, &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Servers != 300 || len(rep.WhatIfs) == 0 || rep.WhatIfs[0].Saving <= 0 {
		t.Errorf("report: %+v", rep)
	}
	if !strings.HasPrefix(e.SVG, "<svg") || !strings.Contains(e.Text, "phase") {
		t.Errorf("chart %.40q, text %.80q", e.SVG, e.Text)
	}
	var bad struct {
		Error string `json:"error"`
	}
	for _, req := range []string{`{"layout":"L4a"}`, `{"layout":"L1a","n":1000000}`} {
		if err := json.Unmarshal(s.Call("example", []byte(req)), &bad); err != nil || bad.Error == "" {
			t.Errorf("example %s: want an error, got %q (%v)", req, bad.Error, err)
		}
	}
}

func TestRoute(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "..", "testdata", "route", "shop.conf"))
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	testfiles.Write(t, root, map[string]string{"nginx.conf": string(src)})
	s := playground.NewSession()
	var res playground.RouteResult
	call(t, s, "route", playground.RouteRequest{Request: playground.Request{Root: root},
		URLs: []string{"https://shop.example/api/v2/orders", "http://shop.example/cart"}}, &res)
	if len(res.Routes) != 2 {
		t.Fatalf("routes %+v", res.Routes)
	}
	api, cart := res.Routes[0], res.Routes[1]
	if api.Location == nil || api.Location.Name != "/api/" || api.Location.File != "nginx.conf" || api.Handler.Kind != "proxy" {
		t.Errorf("/api/v2/orders: %+v %+v", api.Location, api.Handler)
	}
	if cart.Status != 301 || !strings.Contains(res.Text[1], "301 redirect to https://shop.example/cart") {
		t.Errorf("http://shop.example/cart: %d\n%s", cart.Status, res.Text[1])
	}

	// The request options, as nginx-lint route's flags: the client's
	// address decides allow 10.0.0.0/8 (unknown, it is unsure), a Host
	// header replaces the URL's, no Host meets the default server, and
	// the local address picks the listening socket.
	for _, c := range []struct {
		req    playground.RouteRequest
		status int
		want   string
	}{
		{playground.RouteRequest{URLs: []string{"https://shop.example/admin/"}, Remote: "10.1.2.3"}, 404, "chain     /admin/ in location /admin/"},
		{playground.RouteRequest{URLs: []string{"https://shop.example/admin/"}, Remote: "203.0.113.9"}, 403, "403"},
		{playground.RouteRequest{URLs: []string{"https://shop.example/admin/"}}, 0, "unsure"},
		{playground.RouteRequest{URLs: []string{"http://x.test/"}, Headers: []string{"Host: www.shop.example", "", "X-Real: 1"}}, 301, "server    shop.example"},
		{playground.RouteRequest{URLs: []string{"http://shop.example/"}, NoHost: true}, 0, "connection closed without a response (444)"},
		{playground.RouteRequest{URLs: []string{"https://shop.example/"}, Method: "POST", Local: "127.0.0.1:443"}, 404, "POST https://shop.example/ (on 127.0.0.1:443)"},
		{playground.RouteRequest{URLs: []string{"http://shop.example/"}, Method: "POST", Local: "127.0.0.1:443"}, 400, "plain HTTP request was sent to HTTPS port"},
		{playground.RouteRequest{URLs: []string{"http://shop.example/"}, Local: "unix:/run/nginx.sock"}, 0, "refused: no server listens there"},
	} {
		c.req.Root = root
		var res playground.RouteResult
		call(t, s, "route", c.req, &res)
		if len(res.Routes) != 1 || res.Routes[0].Status != c.status || !strings.Contains(res.Text[0], c.want) {
			t.Errorf("route %+v: want %d and %q, got %+v\n%s", c.req, c.status, c.want, res.Routes, strings.Join(res.Text, ""))
		}
	}
	for _, c := range []struct{ req, want string }{
		{`{"urls": ["http://a/"], "remote": "10.0.0"}`, `client address "10.0.0": not an address`},
		{`{"urls": ["http://a/"], "local": "nowhere"}`, `local address "nowhere": want ADDR:PORT or unix:PATH`},
		{`{"urls": ["http://a/"], "headers": ["X-Nothing"]}`, `header "X-Nothing": want "Name: value"`},
		{`{"urls": ["ftp://a/"]}`, `not an http:// or https:// URL`},
	} {
		var out struct {
			Error string `json:"error"`
		}
		if err := json.Unmarshal(s.Call("route", []byte(c.req)), &out); err != nil || !strings.Contains(out.Error, c.want) {
			t.Errorf("route %s: error %q (%v), want %q", c.req, out.Error, err, c.want)
		}
	}
}

func TestCallErrors(t *testing.T) {
	s := playground.NewSession()
	for _, c := range []struct{ name, req, want string }{
		{"nope", `{}`, `no call "nope"`},
		{"lint", `{"root": 3}`, "request:"},
		{"lint", `{"rooot": "/x"}`, "unknown field"},
		{"lint", `{"root": "/nonexistent-playground", "version": "1.22"}`, "not a version such as 1.22.1"},
		{"explain", `{"rule": "NL9999"}`, `no rule "NL9999"`},
	} {
		var out struct {
			Error string `json:"error"`
		}
		if err := json.Unmarshal(s.Call(c.name, []byte(c.req)), &out); err != nil || !strings.Contains(out.Error, c.want) {
			t.Errorf("%s %s: error %q (%v), want %q", c.name, c.req, out.Error, err, c.want)
		}
	}
	var ex playground.Explanation
	call(t, s, "explain", playground.ExplainRequest{Rule: "unknown-directive"}, &ex)
	if ex.Code != "NL2001" || !strings.Contains(ex.Markdown, "## Bad") {
		t.Errorf("explain: %+v", ex)
	}
}
