package rules

import (
	"reflect"
	"regexp/syntax"
	"testing"

	"github.com/nginx-lint/nginx-lint/analyzer"

	"github.com/nginx-lint/nginx-lint/parser"
)

func TestSplitVars(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []varRef
	}{
		{"http://a$request_uri", []varRef{{lit: "http://a"}, {name: "request_uri"}}},
		{"${scheme}://$host$1x", []varRef{{name: "scheme"}, {lit: "://"}, {name: "host"}, {name: "1"}, {lit: "x"}}},
		{"cost $ 5", []varRef{{lit: "cost $ 5"}}},
		{"end$", []varRef{{lit: "end$"}}},
		{"${broken", []varRef{{lit: "${broken"}}},
		{"a${}b$0$HTTP_Host", []varRef{{lit: "a${}b"}, {name: "0"}, {name: "http_host"}}},
		{"$$x", []varRef{{lit: "$"}, {name: "x"}}},
		{"", nil},
	} {
		if got := splitVars(c.in); !reflect.DeepEqual(got, c.want) {
			t.Errorf("splitVars(%q) = %+v, want %+v", c.in, got, c.want)
		}
		named := false
		for _, r := range c.want {
			named = named || r.name != ""
		}
		if got := hasVars(c.in); got != named {
			t.Errorf("hasVars(%q) = %v, want %v", c.in, got, named)
		}
	}
}

func mustRegex(t *testing.T, expr string) *syntax.Regexp {
	t.Helper()
	re := nginxRegex(expr, false)
	if re == nil {
		t.Fatalf("cannot parse %q", expr)
	}
	return re
}

func TestRegexCharacterQuestions(t *testing.T) {
	for _, c := range []struct {
		expr          string
		lf, cr, slash bool // group 1 may hold LF, CR; may start with a non-slash
	}{
		{`^/a/(.*)$`, false, true, true},
		{`^/a/([^/]+)$`, true, true, true},
		{`^/a/([^\r\n]*)$`, false, false, true},
		{`^/a(/.*)$`, false, true, false},
		{`^/a/(\W*)$`, true, true, true},
		{`^/a/(en|fr)$`, false, false, true},
		{`(?s)^/a/(.*)$`, true, true, true},
	} {
		g := capture(mustRegex(t, c.expr), 1, "")
		if g == nil {
			t.Fatalf("%s: no group 1", c.expr)
		}
		other, _ := mayStart(g, runeSet{r: '/', other: true})
		got := [3]bool{mayContain(g, runeSet{r: '\n'}), mayContain(g, runeSet{r: '\r'}), other}
		if want := [3]bool{c.lf, c.cr, c.slash}; got != want {
			t.Errorf("%s: lf, cr, non-slash start = %v, want %v", c.expr, got, want)
		}
	}
}

// taintOf lints src, the body of http {}, and returns what the argument
// of the first directive called name may hold where it stands.
func taintOf(t *testing.T, src, name string, arg int) taint {
	t.Helper()
	f := parser.ParseString("/x/nginx.conf", "http {\n"+src+"\n}\n", nil)
	c := &parser.Config{Main: f, Files: []*parser.File{f}}
	var out *taint
	probe := &analyzer.Rule{Code: "NL5998", Name: "taint-probe", Title: "probe", Doc: analyzer.Doc{Text: "t", Bad: "b", Good: "g"},
		Run: func(p *analyzer.Pass) {
			env := newTaintEnv(p)
			c.Walk(func(d *parser.Directive, stack []*parser.Directive) bool {
				if out == nil && d.Is(name) {
					v := env.valueTaint(d.Args[arg].Value, stack)
					out = &v
				}
				return true
			})
		}}
	reg, err := analyzer.NewRegistry(probe)
	if err != nil {
		t.Fatal(err)
	}
	findings(c, reg, analyzer.Options{})
	if out == nil {
		t.Fatalf("no %s in %s", name, src)
	}
	return *out
}

func TestTaint(t *testing.T) {
	for _, c := range []struct {
		src  string
		want taint
	}{
		{"add_header X $uri;", taint{user: true, lf: true, cr: true, slash: true, wide: true, known: true}},
		{"add_header X $request_uri;", taint{user: true, slash: true, wide: true, known: true}},
		{"add_header X $unknown_module_var;", taint{}},
		{"add_header X $host;", taint{known: true}},
		// A capture of $request_uri stays free of CR/LF whatever the class.
		{"server { if ($request_uri ~ ^/e/(.*)$) { add_header X $1; } }", taint{user: true, wide: true, known: true}},
		// One host label at most: not wide.
		{"server { location ~ ^/h/([a-z0-9_-]+)$ { add_header X $1; } }", taint{user: true, known: true}},
		// set in the same location; the map resolves through two levels.
		{"server { location ~ ^/p/(\\W*)$ { set $p $1; add_header X $p; } }", taint{user: true, lf: true, cr: true, wide: true, known: true}},
		{"map $host $a { x $uri; default 1; } map $host $b { y $a; default 2; } add_header X $b;",
			taint{user: true, lf: true, cr: true, wide: true, known: true}},
		// A capture of $host: header values never hold CR or LF.
		{"map $host $sub { ~^(?<s>[^.]+)\\. $s; default x; } add_header X $sub;", taint{wide: true, known: true}},
		// A set in another location is not seen.
		{"server { location /a/ { set $v $uri; } location /b/ { set $v fixed; add_header X $v; } }", taint{known: true}},
	} {
		if got := taintOf(t, c.src, "add_header", 1); got != c.want {
			t.Errorf("%s:\n got %+v\nwant %+v", c.src, got, c.want)
		}
	}
}

func TestTaintCycleTerminates(t *testing.T) {
	got := taintOf(t, "server { set $a $b; set $b $a; add_header X $a; }", "add_header", 1)
	if got.user {
		t.Errorf("a cycle of sets became user-controlled: %+v", got)
	}
}

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
	} {
		f := parser.ParseString("/x.conf", c.src, nil)
		v, op, expr, ok := ifMatch(f.Directives[0])
		if v != c.v || op != c.op || expr != c.expr || ok != c.ok {
			t.Errorf("%s: got %q %q %q %v", c.src, v, op, expr, ok)
		}
	}
}

func TestOriginFlaw(t *testing.T) {
	for _, c := range []struct {
		expr   string
		origin bool
		opt    originOptions
		flawed bool
	}{
		{`^https://example\.com$`, true, originOptions{}, false},
		{`^https://([a-z0-9-]+\.)?example\.com(:[0-9]+)?$`, true, originOptions{}, false},
		{`^https://(app|www)\.example\.com$`, true, originOptions{}, false},
		{`^https://example\.com/`, false, originOptions{}, false},
		{`^https?://example\.com$`, true, originOptions{httpsOnly: true}, true},
		{`^https://example\.com$`, true, originOptions{domains: []string{"example.org"}}, true},
		{`^https://a\.example\.com$`, true, originOptions{domains: []string{"example.com"}}, false},
		{`^https://example\.com`, true, originOptions{}, true},
		{`^https://example.com$`, true, originOptions{}, true},
		{`^https://.*example\.com$`, true, originOptions{}, true},
		{`^https://example\.com|evil\.net$`, true, originOptions{}, true},
		{`example\.com`, true, originOptions{}, true},
	} {
		got := originFlaw(mustRegex(t, c.expr), c.origin, c.opt)
		if (got != "") != c.flawed {
			t.Errorf("%s (origin %v, %+v): flaw %q, want flawed=%v", c.expr, c.origin, c.opt, got, c.flawed)
		}
	}
}

func TestRegexAliasTraversal(t *testing.T) {
	for _, c := range []struct {
		loc, alias string
		want       bool
	}{
		{`/images(.*)`, "/srv/$1", true},
		{`/images/(.*)$`, "/srv/$1", false},
		{`/images/(.*)$`, "/srv$1", true},
		{`/images(/.*)`, "/srv$1", false},
		{`/images([^.]*)`, "/srv/$1", false},
		{`/images(?<rest>.*)`, "/srv/$rest", true},
		{`/images(.*)`, "/srv/static/", false},
		{`(.+/)tail$`, "/srv/$1", false},
		{`^(.*)/tail$`, "/srv/$1", false},
	} {
		if got := regexAliasTraversal(mustRegex(t, c.loc), c.alias); got != c.want {
			t.Errorf("location ~ %s alias %s: %v, want %v", c.loc, c.alias, got, c.want)
		}
	}
}
