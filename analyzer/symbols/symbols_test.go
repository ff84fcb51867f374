package symbols_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/symbols"
	"github.com/nginx-lint/nginx-lint/parser"
)

// build parses text as nginx.conf and returns its table.
func build(t *testing.T, text string) (*symbols.Table, *parser.File) {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, "nginx.conf")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := (&parser.Loader{Kinds: analyzer.Kinds}).Load(path)
	if err != nil {
		t.Fatal(err)
	}
	return symbols.Build(analyzer.NewIndex(c)), c.Files[0]
}

// occs renders occurrences as "line:text[=def]".
func occs(f *parser.File, os []symbols.Occurrence) string {
	var out []string
	for _, o := range os {
		s := f.Src[o.Range.Start:o.Range.End]
		if o.Def {
			s += "=def"
		}
		out = append(out, strings.Join([]string{itoa(f.Line(int(o.Range.Start))), s}, ":"))
	}
	return strings.Join(out, " ")
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}

func TestUpstreamsFoldCaseAndKeepStreamApart(t *testing.T) {
	text := "events {}\n" +
		"http {\n" +
		"    upstream Backend { server 127.0.0.1:1; }\n" +
		"    server { listen 80; location / { proxy_pass http://backend/x; } location /g { grpc_pass BACKEND; } location /p { proxy_pass http://backend:8080; } }\n" +
		"}\n" +
		"stream {\n" +
		"    upstream backend { server 127.0.0.1:2; }\n" +
		"    server { listen 81; proxy_pass backend; }\n" +
		"}\n"
	tab, f := build(t, text)
	httpSym := symbols.Symbol{Kind: symbols.Upstream, Name: "backend"}
	// The port form names no block (nginx: "upstream may not have port").
	if got, want := occs(f, tab.Occurrences(httpSym)), "3:Backend=def 4:backend 4:BACKEND"; got != want {
		t.Errorf("http upstream: %s, want %s", got, want)
	}
	streamSym := symbols.Symbol{Kind: symbols.Upstream, Name: "backend", Stream: true}
	if got, want := occs(f, tab.Occurrences(streamSym)), "7:backend=def 8:backend"; got != want {
		t.Errorf("stream upstream: %s, want %s", got, want)
	}
	// From the proxy_pass's name, the definition is the http block.
	off := strings.Index(text, "http://backend") + len("http://b")
	o, ok := tab.At(f.Path, off)
	if !ok || o.Symbol != httpSym {
		t.Fatalf("At(proxy_pass) = %+v %v", o, ok)
	}
	if got := occs(f, tab.Definitions(o.Symbol)); got != "3:Backend=def" {
		t.Errorf("definition %s", got)
	}
}

func TestVariables(t *testing.T) {
	text := "events {}\n" +
		"http {\n" +
		"    map $uri $Kind { ~^/(?<sect>[a-z]+)/ $sect; default x; }\n" +
		"    geo $remote_addr $net { default 0; }\n" +
		"    server {\n" +
		"        listen 80;\n" +
		"        set $who \"w\";\n" +
		"        location ~ ^/u/(?<user>\\w+)$ { return 200 \"$who ${kind} $user $host $net\"; }\n" +
		"        location @fallback { return 404; }\n" +
		"        error_page 404 = @fallback;\n" +
		"    }\n" +
		"}\n"
	tab, f := build(t, text)
	v := func(n string) symbols.Symbol { return symbols.Symbol{Kind: symbols.Variable, Name: n} }
	for _, c := range []struct {
		sym  symbols.Symbol
		want string
	}{
		{v("who"), "7:who=def 8:who"},
		{v("kind"), "3:Kind=def 8:kind"},
		{v("sect"), "3:sect=def 3:sect"},
		{v("user"), "8:user=def 8:user"},
		{v("net"), "4:net=def 8:net"},
		{v("host"), ""}, // built in: not this configuration's
		{symbols.Symbol{Kind: symbols.NamedLocation, Name: "fallback"}, "9:fallback=def 10:fallback"},
	} {
		if got := occs(f, tab.Occurrences(c.sym)); got != c.want {
			t.Errorf("%s %s: %s, want %s", c.sym.Kind, c.sym.Name, got, c.want)
		}
	}
	off := strings.Index(text, "$who ${") // on the "$"
	if o, ok := tab.At(f.Path, off); !ok || o.Symbol != v("who") {
		t.Errorf("At($who) = %+v %v", o, ok)
	}
	if defs := tab.Definitions(v("user")); len(defs) != 1 || !defs[0].Capture {
		t.Errorf("$user's definition %+v is not a capture", defs)
	}
}

func TestZonesAndLogFormats(t *testing.T) {
	text := "events {}\n" +
		"http {\n" +
		"    limit_req_zone $binary_remote_addr zone=one:10m rate=1r/s;\n" +
		"    proxy_cache_path /tmp/c keys_zone=Cache:10m;\n" +
		"    log_format Main '$remote_addr';\n" +
		"    ssl_session_cache shared:SSL:1m;\n" +
		"    server { listen 80; limit_req zone=one; proxy_cache Cache; access_log /var/log/a main buffer=4k; }\n" +
		"}\n" +
		"stream {\n" +
		"    log_format main '$remote_addr';\n" +
		"    server { listen 81; access_log /var/log/s main; proxy_pass 127.0.0.1:1; }\n" +
		"}\n"
	tab, f := build(t, text)
	for _, c := range []struct {
		sym  symbols.Symbol
		want string
	}{
		{symbols.Symbol{Kind: symbols.Zone, Name: "one"}, "3:one=def 7:one"},
		{symbols.Symbol{Kind: symbols.Zone, Name: "Cache"}, "4:Cache=def 7:Cache"},
		{symbols.Symbol{Kind: symbols.Zone, Name: "SSL"}, "6:SSL=def"},
		{symbols.Symbol{Kind: symbols.LogFormat, Name: "main"}, "5:Main=def 7:main"},
		{symbols.Symbol{Kind: symbols.LogFormat, Name: "main", Stream: true}, "10:main=def 11:main"},
	} {
		if got := occs(f, tab.Occurrences(c.sym)); got != c.want {
			t.Errorf("%s %s (stream %v): %s, want %s", c.sym.Kind, c.sym.Name, c.sym.Stream, got, c.want)
		}
	}
	// On "one" in limit_req zone=one: the zone, not past its "=".
	off := strings.Index(text, "zone=one;") + len("zone=")
	if o, ok := tab.At(f.Path, off); !ok || o.Symbol.Kind != symbols.Zone {
		t.Errorf("At(zone=one) = %+v %v", o, ok)
	}
	if o, ok := tab.At(f.Path, off-1); ok {
		t.Errorf("At the \"=\" before one = %+v", o)
	}
}

func TestNumberedCaptures(t *testing.T) {
	text := "events {}\n" +
		"http {\n" +
		"    map $uri $m { ~^/(a)(b) $2; default x; }\n" +
		"    server {\n" +
		"        listen 80;\n" +
		"        server_name ~^(www)\\.(?<dom>.+)$;\n" +
		"        rewrite ^/old/(.*)$ /new/$1 last;\n" +
		"        location ~ ^/u/(\\w+)$ { if ($args ~ (x)) { return 200 $1; } return 200 \"$1 $0 $1abc\"; }\n" +
		"        location / { return 200 $1; }\n" +
		"    }\n" +
		"}\n"
	tab, f := build(t, text)
	// defAt returns the line and text of the regex a $N at the n-th
	// match of pat (whose "$" is at its start) refers to.
	defOf := func(pat string, n int) string {
		t.Helper()
		off := -1
		for range n {
			off += 1 + strings.Index(text[off+1:], pat)
		}
		o, ok := tab.At(f.Path, off+1)
		if !ok || o.Symbol.Kind != symbols.Capture {
			return "none"
		}
		defs := tab.Definitions(o.Symbol)
		if len(defs) != 1 {
			return "defs " + itoa(len(defs))
		}
		return occs(f, defs)
	}
	for _, c := range []struct {
		pat  string
		n    int
		want string
	}{
		{"$2;", 1, `3:~^/(a)(b)=def`},
		{"$1 last", 1, `7:^/old/(.*)$=def`},
		{"$1; }", 1, `8:(x))=def`}, // the word, its ")" included
		{"$1 $0", 1, `8:^/u/(\w+)$=def`},
		// "$1abc" is capture 1 and the text "abc", as nginx's script
		// compiler reads it (the rules read it so too: script.Tokens).
		{"$1abc", 1, `8:^/u/(\w+)$=def`},
		// "$0" is no capture: nginx reads the variable "0" (and refuses
		// it as unknown).
		{"$0 ", 1, "none"},
		{"$1; }", 2, `6:~^(www)\.(?<dom>.+)$=def`},
	} {
		if got := defOf(c.pat, c.n); got != c.want {
			t.Errorf("%s (#%d): %s, want %s", c.pat, c.n, got, c.want)
		}
	}
	if o, ok := tab.At(f.Path, strings.Index(text, "$0 ")+1); !ok || o.Symbol.Kind != symbols.Variable || o.Symbol.Name != "0" {
		t.Errorf("At($0) = %+v %v, want the variable \"0\"", o, ok)
	}
	// The named group inside the server_name regex is still its own
	// symbol.
	if o, ok := tab.At(f.Path, strings.Index(text, "dom>")); !ok || o.Symbol.Kind != symbols.Variable || o.Symbol.Name != "dom" {
		t.Errorf("At(dom) = %+v %v", o, ok)
	}
}

// TestUpstreamOnlyInHTTPAndStream: nginx defines an upstream block only
// in http {} and stream {} (elsewhere it refuses the directive), so the
// table, and the rules that ask it (host-not-found, stale-dns-cache),
// do not count one written in a server.
func TestUpstreamOnlyInHTTPAndStream(t *testing.T) {
	tab, _ := build(t, "events {}\nhttp {\n    upstream good { server 127.0.0.1:1; }\n    server {\n        upstream bad { server 127.0.0.1:2; }\n    }\n}\n")
	if !tab.Defined(symbols.UpstreamSymbol("Good", false)) {
		t.Error("upstream good in http {} is not defined")
	}
	if tab.Defined(symbols.UpstreamSymbol("bad", false)) {
		t.Error("upstream bad in server {} is defined")
	}
}

// TestDefinedByEveryInclusion: a file included in two servers defines
// its variable in both (DefinedBy lists both directives, for the rules
// that ask which definition applies where), though its text is one
// place (Definitions and Occurrences list each place once, for the
// editor).
func TestDefinedByEveryInclusion(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{
		"nginx.conf": "events {}\nhttp {\n    server { include set.conf; }\n    server { include set.conf; }\n}\n",
		"set.conf":   "set $Backend a.example;\nreturn 200 $backend;\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	c, err := (&parser.Loader{Kinds: analyzer.Kinds}).Load(filepath.Join(dir, "nginx.conf"))
	if err != nil {
		t.Fatal(err)
	}
	ix := analyzer.NewIndex(c)
	tab := symbols.Build(ix)
	sym := symbols.VariableSymbol("backend", false)
	by := tab.DefinedBy(sym)
	if len(by) != 2 || by[0] >= by[1] {
		t.Fatalf("DefinedBy = %v, want the two set entries in order", by)
	}
	for _, i := range by {
		if d := ix.Entries[i].Directive; !d.Is("set") {
			t.Errorf("entry %d is %s, not set", i, d.Name().Value)
		}
	}
	if n := len(tab.Definitions(sym)); n != 1 {
		t.Errorf("Definitions has %d places, want 1", n)
	}
	if n := len(tab.Occurrences(sym)); n != 2 {
		t.Errorf("Occurrences has %d places, want 2 (the set and the return, once each)", n)
	}
}

// TestCertificates: the paths of certificates, keys and CAs are symbols
// named by the path as written, one per path however many directives
// name it; a path with variables (read per request) and inline data:
// name none.
func TestCertificates(t *testing.T) {
	text := "events {}\n" +
		"http {\n" +
		"    ssl_certificate certs/a.crt;\n" +
		"    ssl_certificate_key \"certs/a.key\";\n" +
		"    server { listen 443 ssl; ssl_certificate certs/a.crt; ssl_certificate $ssl_server_name.crt; }\n" +
		"    server { listen 444 ssl; proxy_ssl_trusted_certificate /etc/ca.pem; ssl_certificate data:$x; }\n" +
		"}\n" +
		"stream { server { listen 445 ssl; ssl_certificate certs/a.crt; } }\n"
	tab, f := build(t, text)
	cert := func(path string) symbols.Symbol { return symbols.Symbol{Kind: symbols.Certificate, Name: path} }
	for _, c := range []struct {
		sym  symbols.Symbol
		want string
	}{
		{cert("certs/a.crt"), "3:certs/a.crt 5:certs/a.crt 8:certs/a.crt"},
		{cert("certs/a.key"), "4:certs/a.key"},
		{cert("/etc/ca.pem"), "6:/etc/ca.pem"},
		{cert("$ssl_server_name.crt"), ""},
		{cert("data:$x"), ""},
	} {
		if got := occs(f, tab.Occurrences(c.sym)); got != c.want {
			t.Errorf("%s: %s, want %s", c.sym.Name, got, c.want)
		}
	}
}

// TestUsesReadAsTable: the rules' reading of the variables a script uses
// (ReadUses) and the table's (what the editor shows) come from one
// scanner, so they name the same variables: "$1abc" is a capture and
// text, "$0" and "${1}" are variables, "$HTTP_Host" is one whatever its
// case.
func TestUsesReadAsTable(t *testing.T) {
	text := "events {}\nhttp {\n    server {\n        listen 80;\n" +
		"        location ~ ^/u/(\\w+)$ { return 200 \"$1abc $0 ${1} $HTTP_Host ${uri}x\"; }\n    }\n}\n"
	dir := t.TempDir()
	path := filepath.Join(dir, "nginx.conf")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := (&parser.Loader{Kinds: analyzer.Kinds}).Load(path)
	if err != nil {
		t.Fatal(err)
	}
	ix := analyzer.NewIndex(c)
	var rules []string
	for _, u := range symbols.ReadUses(ix, nil).Uses {
		rules = append(rules, u.Name+"@"+itoa(int(u.Range.Start)))
	}
	tab := symbols.Build(ix)
	var editor []string
	for _, o := range tab.In(path, parser.Range{Start: 0, End: int32(len(text))}) {
		if o.Symbol.Kind == symbols.Variable {
			// The table's range is the name; the rules' starts at "$".
			at := int(o.Range.Start) - 1
			if text[at] == '{' {
				at--
			}
			editor = append(editor, text[o.Range.Start:o.Range.End]+"@"+itoa(at))
		}
	}
	want := []string{"0@", "1@", "HTTP_Host@", "uri@"}
	if len(rules) != len(want) || strings.Join(rules, " ") != strings.Join(editor, " ") {
		t.Errorf("ReadUses: %v\ntable:    %v\nwant the names %v in both", rules, editor, want)
	}
	for i, w := range want {
		if i < len(rules) && !strings.HasPrefix(rules[i], w) {
			t.Errorf("use %d: %s, want %s...", i, rules[i], w)
		}
	}
}

// TestIfMatch: the regex match of an if condition, read as nginx reads
// the condition (SplitIf): the ")" leaves a quoted last word too.
func TestIfMatch(t *testing.T) {
	for _, c := range []struct {
		src, v, op, expr string
		ok               bool
	}{
		{`if ($uri ~* ^/echo/(.*)$) {}`, "uri", "~*", `^/echo/(.*)$`, true},
		{`if ($http_origin !~ "^https://(a|b)$" ) {}`, "http_origin", "!~", `^https://(a|b)$`, true},
		{`if ( $x ~ "(a|b)" ) {}`, "x", "~", `(a|b)`, true},
		{`if ($x = y) {}`, "", "", "", false},
		{`if ($x) {}`, "", "", "", false},
		{`if ($Host ~ "^(a))" {}`, "host", "~", `^(a)`, true},
	} {
		f := parser.ParseString("/x.conf", c.src, nil)
		v, op, expr, ok := symbols.IfMatch(f.Directives[0])
		if v != c.v || op != c.op || expr != c.expr || ok != c.ok {
			t.Errorf("%s: got %q %q %q %v", c.src, v, op, expr, ok)
		}
	}
}
