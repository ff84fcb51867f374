package taint

import (
	"testing"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/internal/door"
	"github.com/nginx-lint/nginx-lint/parser"
)

// taintOf lints src, the body of http {}, and returns what the argument
// of the first directive called name may hold where it stands.
func taintOf(t *testing.T, src, name string, arg int) Value {
	t.Helper()
	f := parser.ParseString("/x/nginx.conf", "http {\n"+src+"\n}\n", nil)
	c := &parser.Config{Main: f, Files: []*parser.File{f}}
	var out *Value
	probe := &analyzer.Rule{Code: "NL5998", Name: "taint-probe", Title: "probe", Doc: analyzer.Doc{Text: "t", Bad: "b", Good: "g"},
		Run: func(p *analyzer.Pass) {
			env := NewEnv(p)
			c.Walk(func(d *parser.Directive, stack []*parser.Directive) bool {
				if out == nil && d.Is(name) {
					v := env.Of(d.Args()[arg].Value, stack)
					out = &v
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
		t.Fatalf("no %s in %s", name, src)
	}
	return *out
}

func TestTaint(t *testing.T) {
	for _, c := range []struct {
		src  string
		want Value
	}{
		{"add_header X $uri;", Value{User: true, LF: true, CR: true, Slash: true, Wide: true, Known: true}},
		{"add_header X $request_uri;", Value{User: true, Slash: true, Wide: true, Known: true}},
		{"add_header X $unknown_module_var;", Value{}},
		{"add_header X $host;", Value{Known: true}},
		// A capture of $request_uri stays free of CR/LF whatever the class.
		{"server { if ($request_uri ~ ^/e/(.*)$) { add_header X $1; } }", Value{User: true, Wide: true, Known: true}},
		// One host label at most: not wide.
		{"server { location ~ ^/h/([a-z0-9_-]+)$ { add_header X $1; } }", Value{User: true, Known: true}},
		// set in the same location; the map resolves through two levels.
		{"server { location ~ ^/p/(\\W*)$ { set $p $1; add_header X $p; } }", Value{User: true, LF: true, CR: true, Wide: true, Known: true}},
		{"map $host $a { x $uri; default 1; } map $host $b { y $a; default 2; } add_header X $b;",
			Value{User: true, LF: true, CR: true, Wide: true, Known: true}},
		// A capture of $host: header values never hold CR or LF.
		{"map $host $sub { ~^(?<s>[^.]+)\\. $s; default x; } add_header X $sub;", Value{Wide: true, Known: true}},
		// A set in another location is not seen.
		{"server { location /a/ { set $v $uri; } location /b/ { set $v fixed; add_header X $v; } }", Value{Known: true}},
	} {
		if got := taintOf(t, c.src, "add_header", 1); got != c.want {
			t.Errorf("%s:\n got %+v\nwant %+v", c.src, got, c.want)
		}
	}
}

func TestTaintCycleTerminates(t *testing.T) {
	got := taintOf(t, "server { set $a $b; set $b $a; add_header X $a; }", "add_header", 1)
	if got.User {
		t.Errorf("a cycle of sets became user-controlled: %+v", got)
	}
}
