package parser_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/internal/testfiles"
	"github.com/nginx-lint/nginx-lint/parser"
	"github.com/nginx-lint/nginx-lint/parser/grammar"
)

// flatten renders directives as "name[arg|arg]{...}" for compact asserts.
func flatten(ds []*parser.Directive) string {
	var b strings.Builder
	for i, d := range ds {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(d.Name().Value)
		if len(d.Args()) > 0 {
			b.WriteString("[" + strings.Join(d.ArgValues(), "|") + "]")
		}
		if d.Block != nil {
			b.WriteString("{" + flatten(d.Block.Directives) + "}")
		}
	}
	return b.String()
}

func errs(f *parser.File) string {
	var out []string
	for _, d := range f.Diagnostics {
		p := d.Start()
		out = append(out, fmt.Sprintf("%d:%d %s", p.Line, p.Column, d.Message))
	}
	return strings.Join(out, "; ")
}

func TestTokenizer(t *testing.T) {
	tests := []struct {
		name, src, tree, errs string
	}{
		{"simple", "a b;", "a[b]", ""},
		{"block", "http { server { listen 80; } }", "http{server{listen[80]}}", ""},
		{"quotes", `a "b c" 'd e' "";`, "a[b c|d e|]", ""},
		{"quote spans lines", "a \"b\nc\";", "a[b\nc]", ""},
		{"escapes in quotes", `a "x\"y" 'p\'q' "t\tn\n\\z\d";`, "a[x\"y|p'q|t\tn\n\\z\\d]", ""},
		{"escape outside quotes", `a b\ c \;;`, `a[b\ c|\;]`, ""},
		{"comment only at word start", "a b#c; # d\n", "a[b#c]", ""},
		{"variable braces", "a ${b}c x${y};", "a[${b}c|x${y}]", ""},
		{"brace ends word", "a b{ c; }", "a[b]{c}", ""},
		{"rbrace inside word", "a b}c;", "a[b}c]", ""},
		{"if parens", `if ($a = "b") { return 200; }`, `if[($a|=|b|)]{return[200]}`, ""},
		{"crlf", "a b;\r\nc d;\r\n", "a[b] c[d]", ""},
		{"non utf8", "a \xff\xfe;", "a[\xff\xfe]", ""},
		{"lua block", "x_by_lua_block { s = '}' -- }\n t = [[ } ]] }\nb;", "x_by_lua_block[ s = '}' -- }\n t = [[ } ]] ] b", ""},
		{"quoted directive", `"a" b;`, "a[b]", ""},

		{"glued quote", `a "b"c;`, "a[b|c]", `1:6 unexpected "c"`},
		{"missing semicolon before brace", "a b\n}", "a[b]", `2:1 unexpected "}"`},
		{"extra rbrace", "a;\n}\nb;", "a b", `2:1 unexpected "}"`},
		{"eof in block", "http {\n a;\n", "http{a}", `3:1 unexpected end of file, expecting "}"`},
		{"eof in statement", "a b", "a[b]", `1:4 unexpected end of file, expecting ";" or "}"`},
		{"open quote", "a \"b;\n", "a[b;]", `2:1 unexpected end of file, expecting ";" or "}"`},
		{"lone semicolon", ";a;", "a", `1:1 unexpected ";"`},
		{"lone brace", "{ a; }\nb;", "b", `1:1 unexpected "{"`},
		{"brace in map", "map $a $b {\n x { }\n}", "map[$a|$b]{x{}}", `2:4 unexpected "{"`},
		// nginx's read buffer is 4096 bytes; the thresholds were checked
		// against nginx 1.22.1.
		{"long", "a " + strings.Repeat("x", 4095) + ";", "a[" + strings.Repeat("x", 4095) + "]", ``},
		{"too long", "a " + strings.Repeat("x", 4096) + ";", "a[" + strings.Repeat("x", 4096) + "]", `1:3 too long parameter "xxxxxxxxxx..." started`},
		{"long quoted", "a \"" + strings.Repeat("x", 4094) + "\";", "a[" + strings.Repeat("x", 4094) + "]", ``},
		{"too long quoted", "a \"" + strings.Repeat("x", 4095) + "\";", "a[" + strings.Repeat("x", 4095) + "]", `1:3 too long parameter "xxxxxxxxxx..." started`},
		{"unterminated long quoted", "a \"" + strings.Repeat("x", 4096) + "\";", "a[" + strings.Repeat("x", 4096) + "]", `1:3 too long parameter, probably missing terminating "\"" character`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := parser.ParseString("t.conf", tt.src, nil)
			if got := flatten(f.Directives); got != tt.tree {
				t.Errorf("tree:\n got %q\nwant %q", got, tt.tree)
			}
			if got := errs(f); got != tt.errs {
				t.Errorf("errors:\n got %q\nwant %q", got, tt.errs)
			}
		})
	}
}

// TestWordQuoting checks the quoting a word reads from its source: the
// opening quote of a quoted token, none for a bare token (even one with a
// quote inside or escaped quotes) or for a raw block's body, and a token
// cut short by the end of input, an escaped quote not closing it.
func TestWordQuoting(t *testing.T) {
	for _, c := range []struct {
		src          string
		quotes       string // each argument's quote, "-" for none
		unterminated string // "u" or "-" per argument
	}{
		{`a b "c" 'd' "";`, `-"'"`, "----"},
		{`a b"c x\"y \";`, `---`, "---"},
		{`a "x\"y" 'it\'s';`, `"'`, "--"},
		{`x_by_lua_block {"s"}`, `-`, "-"},
		{`x_by_lua_block { "s" }`, `-`, "-"},
		{`a "b`, `"`, "u"},
		{`a "b\"`, `"`, "u"},
		{`a b '`, `-'`, "-u"},
	} {
		f := parser.ParseString("t.conf", c.src, nil)
		if len(f.Directives) == 0 {
			t.Errorf("%q: no directive", c.src)
			continue
		}
		var q, u strings.Builder
		for _, w := range f.Directives[0].Args() {
			switch b := w.Quote(f); b {
			case 0:
				q.WriteByte('-')
			default:
				q.WriteByte(b)
			}
			if w.Unterminated(f) {
				u.WriteByte('u')
			} else {
				u.WriteByte('-')
			}
		}
		if q.String() != c.quotes || u.String() != c.unterminated {
			t.Errorf("%q: quotes %q, unterminated %q; want %q, %q", c.src, q.String(), u.String(), c.quotes, c.unterminated)
		}
	}
	// A word of another, shorter file is not read out of range.
	f := parser.ParseString("t.conf", `a "long value";`, nil)
	if q := f.Directives[0].Args()[0].Quote(parser.ParseString("u.conf", "b;", nil)); q != 0 {
		t.Errorf("Quote in a file the word is not from = %q, want 0", q)
	}
}

// TestBlockStructureErrors needs directive knowledge, as nginx does.
func TestBlockStructureErrors(t *testing.T) {
	tests := []struct {
		name, src, tree, errs string
	}{
		{"not terminated", "events {}\nhttp { server {\n rewrite ^/a([0-9]{4})$ /b last;\n return 200;\n}}",
			"events{} http{server{rewrite[^/a([0-9]] return[200]}}", `3:19 directive "rewrite" is not terminated by ";"`},
		{"no opening", "http {\n server;\n}", "http{server}", `2:8 directive "server" has no opening "{"`},
		{"missing semicolon splits", "http {\n server {\n  listen 80\n  server_name a;\n }\n}",
			"http{server{listen[80] server_name[a]}}", `3:10 missing ";" after "listen 80"`},
		{"missing semicolon before block", "worker_processes 1\nevents {}",
			"worker_processes[1] events{}", `2:8 directive "worker_processes" is not terminated by ";"`},
		{"multi-line directive kept", "http {\n access_log /x main\n   gzip flush=1m;\n}",
			"http{access_log[/x|main|gzip|flush=1m]}", ""},
		{"server in upstream is not a block", "http { upstream u { server 127.0.0.1; } }",
			"http{upstream[u]{server[127.0.0.1]}}", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := parser.ParseString("t.conf", tt.src, &parser.Options{Kinds: analyzer.Kinds})
			if got := flatten(f.Directives); got != tt.tree {
				t.Errorf("tree:\n got %q\nwant %q", got, tt.tree)
			}
			if got := errs(f); got != tt.errs {
				t.Errorf("errors:\n got %q\nwant %q", got, tt.errs)
			}
		})
	}
}

func TestPositions(t *testing.T) {
	src := "http {\n\tserver_name \"é😀\" x;\n}\n"
	f := parser.ParseString("t.conf", src, nil)
	d := f.Directives[0].Block.Directives[0]
	x := d.Args()[1]
	// Byte column: "\t", 11 letters, " ", quote, é (2 bytes), 😀 (4),
	// quote, space.
	if p := f.Position(int(x.Range.Start)); p.Line != 2 || p.Column != 23 {
		t.Errorf("x at %+v, want 2:23", p)
	}
	// UTF-16: é is one unit, 😀 two.
	if got := f.UTF16Column(int(x.Range.Start)); got != 19 {
		t.Errorf("UTF-16 column %d, want 19", got)
	}
	if got := f.OffsetUTF16(1, 19); got != int(x.Range.Start) {
		t.Errorf("OffsetUTF16 = %d, want %d", got, x.Range.Start)
	}
	if got := d.Args()[0].Raw(f); got != "\"é😀\"" {
		t.Errorf("raw %q", got)
	}
	if d.File != f {
		t.Error("file link wrong")
	}
	if got := f.LineText(2); got != "\tserver_name \"é😀\" x;" {
		t.Errorf("LineText %q", got)
	}
}

func TestComments(t *testing.T) {
	src := "# lead\na; # trail\n\n# lead b\nb {\n # inner\n}\n"
	f := parser.ParseString("t.conf", src, nil)
	var got []string
	for _, c := range f.Comments {
		to := "-"
		if c.Directive != nil {
			to = c.Directive.Name().Value
		}
		got = append(got, fmt.Sprintf("%s>%s/%v", c.Text, to, c.Trailing))
	}
	want := []string{" lead>a/false", " trail>a/true", " lead b>b/false"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Error(diff)
	}
	if inner := f.Directives[1].Block.Comments(); len(inner) != 1 || inner[0].Text != " inner" {
		t.Errorf("block comments %v", inner)
	}
}

func TestLoaderIncludes(t *testing.T) {
	fs := &parser.Overlay{Files: map[string][]byte{
		"/etc/nginx/nginx.conf":           []byte("events {}\nhttp {\n include conf.d/*.conf;\n include missing.conf;\n include /etc/nginx/none/*.conf;\n}\n"),
		"/etc/nginx/conf.d/b.conf":        []byte("server { include snippets/common.conf; }\n"),
		"/etc/nginx/conf.d/a.conf":        []byte("server { include snippets/common.conf; }\n"),
		"/etc/nginx/conf.d/.hidden.conf":  []byte("broken {"),
		"/etc/nginx/snippets/common.conf": []byte("listen 80;\ninclude snippets/loop.conf;\n"),
		"/etc/nginx/snippets/loop.conf":   []byte("include snippets/common.conf;\n"),
	}}
	c, err := (&parser.Loader{FS: fs}).Load("/etc/nginx/nginx.conf")
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	for _, f := range c.Files {
		files = append(files, strings.TrimPrefix(f.Path, "/etc/nginx/"))
	}
	want := []string{"nginx.conf", "conf.d/a.conf", "snippets/common.conf", "snippets/loop.conf", "conf.d/b.conf"}
	if diff := cmp.Diff(want, files); diff != "" {
		t.Errorf("files (-want +got):\n%s", diff)
	}
	var findings []string
	for _, d := range c.AllDiagnostics() {
		findings = append(findings, fmt.Sprintf("%s:%d %s", strings.TrimPrefix(d.FilePath(), "/etc/nginx/"), d.Start().Line, d.Name))
	}
	wantFindings := []string{"nginx.conf:4 include-not-found", "snippets/loop.conf:1 include-cycle"}
	if diff := cmp.Diff(wantFindings, findings); diff != "" {
		t.Errorf("findings (-want +got):\n%s", diff)
	}
	m := parser.BuildModel(c)
	if len(m.Servers) != 2 || len(m.Servers[0].Listens()) != 1 || len(m.Servers[1].Listens()) != 1 {
		t.Fatalf("model: %d servers", len(m.Servers))
	}
}

func TestLoaderCacheReparsesOnlyChanged(t *testing.T) {
	fs := &parser.Overlay{Files: map[string][]byte{
		"/n/nginx.conf": []byte("http { include a.conf; include b.conf; }"),
		"/n/a.conf":     []byte("server { listen 1; }"),
		"/n/b.conf":     []byte("server { listen 2; }"),
	}}
	l := &parser.Loader{FS: fs}
	c1, _ := l.Load("/n/nginx.conf")
	fs.Files["/n/b.conf"] = []byte("server { listen 3; }")
	c2, _ := l.Load("/n/nginx.conf")
	if c1.Files[1] != c2.Files[1] {
		t.Error("unchanged a.conf was parsed again")
	}
	if c1.Files[2] == c2.Files[2] {
		t.Error("changed b.conf was not parsed again")
	}
}

func TestDump(t *testing.T) {
	dump := "nginx: the configuration file /etc/nginx/nginx.conf syntax is ok\n" +
		"# configuration file /etc/nginx/nginx.conf:\nevents {}\nhttp { include conf.d/*.conf; }\n\n" +
		"# configuration file /etc/nginx/conf.d/x.conf:\nserver {\n listen 80\n}\n\n"
	files, ok := parser.SplitDump([]byte(dump))
	if !ok || len(files) != 2 {
		t.Fatalf("SplitDump: %v %d", ok, len(files))
	}
	c := (&parser.Loader{}).LoadDump("dump", files)
	if len(c.Files) != 2 {
		t.Fatalf("%d files", len(c.Files))
	}
	ds := c.AllDiagnostics()
	if len(ds) != 1 || ds[0].FilePath() != "/etc/nginx/conf.d/x.conf" || ds[0].Start().Line != 3 {
		t.Fatalf("diagnostics %v", ds)
	}
	if _, ok := parser.SplitDump([]byte("events {}\n")); ok {
		t.Error("a plain config is not a dump")
	}
}

func TestModel(t *testing.T) {
	src := `http {
  upstream u { server 127.0.0.1:81; }
  server {
    listen 127.0.0.1:8080 default_server;
    listen [::1]:8080;
    server_name example.com *.example.com ~^w\d+;
    location / { location = /x { } }
    location @named { }
    location a b c { }
    if ($a) { listen 1; }
  }
}
stream { server { listen 5353 udp; } }`
	f := parser.ParseString("t.conf", src, &parser.Options{Kinds: analyzer.Kinds})
	m := parser.BuildModel(&parser.Config{Main: f, Files: []*parser.File{f}})
	if len(m.Servers) != 2 || len(m.Upstreams) != 1 || len(m.HTTP) != 1 {
		t.Fatalf("servers %d upstreams %d http %d", len(m.Servers), len(m.Upstreams), len(m.HTTP))
	}
	s := m.Servers[0]
	if ls := s.Listens(); len(ls) != 2 || ls[0].Spec == nil || ls[0].Spec.Port != 8080 || ls[1].Spec.Key != "[::1]:8080" || ls[0].Err() != nil {
		t.Errorf("listens %+v", ls)
	}
	if ns := s.Names(); len(ns) != 3 || ns[2].Arg != 2 || ns[1].Spec().Kind != grammar.NameWildcardHead || ns[2].Spec().Name != `^w\d+` {
		t.Errorf("names %+v", ns)
	}
	locs := s.Locations()
	if len(locs) != 3 || len(locs[0].Locations()) != 1 || locs[0].Locations()[0].Directive != locs[0].Directive.Children()[0] ||
		locs[0].Locations()[0].Spec().Path != "/x" || locs[0].Locations()[0].Err() != nil || !locs[1].Spec().Named {
		t.Errorf("locations %+v", locs)
	}
	if bad := locs[len(locs)-1]; bad.Err() == nil || bad.Err().Arg != -1 {
		t.Errorf("location with three arguments: error %v, want one on the whole directive", bad.Err())
	}
	if m.Servers[1].Protocol != parser.Stream || m.Upstreams[0].Name != "u" || len(m.Upstreams[0].Servers) != 1 {
		t.Errorf("stream server or upstream wrong")
	}
}

// TestServerMisplaced checks which server blocks the model marks as not
// directly in their protocol block: one inside a location is; one at the
// top of a file included in http, or in stream, is not.
func TestServerMisplaced(t *testing.T) {
	dir := t.TempDir()
	testfiles.Write(t, dir, map[string]string{
		"nginx.conf": `events {}
http {
    server { listen 1; location / { server { listen 2; } } }
    include site.conf;
}
stream { server { listen 4; } }
`,
		"site.conf": "server { listen 3; }\n",
	})
	c, err := (&parser.Loader{Kinds: analyzer.Kinds}).Load(filepath.Join(dir, "nginx.conf"))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range parser.BuildModel(c).Servers {
		got = append(got, fmt.Sprintf("%s:%v", s.Listens()[0].Directive.Args()[0].Value, s.Misplaced))
	}
	if want := "1:false 2:true 3:false 4:false"; strings.Join(got, " ") != want {
		t.Errorf("listen:misplaced = %q, want %q", strings.Join(got, " "), want)
	}
}

// TestDirectiveEnds checks what a directive reads back from its two
// offsets and the source: where its ";", "{" and "}" are, and whether it
// is a raw block or was cut short.
func TestDirectiveEnds(t *testing.T) {
	for _, c := range []struct {
		src  string
		want string // semicolon lbrace rbrace raw unterminated, of the first directive
	}{
		{"a b;", "3 -1 -1 false false"},
		{"a { b; }", "-1 2 7 false false"},
		{"x_by_lua_block { s }", "-1 15 19 true false"},
		{"x_by_lua_block { s", "-1 15 -1 true true"},
		{"x_by_lua_block;", "14 -1 -1 false false"},
		{"a b", "-1 -1 -1 false true"},
		{"a {\n b;", "-1 2 -1 false true"},
		{"http { a b }", "-1 5 11 false false"},
	} {
		f := parser.ParseString("t.conf", c.src, &parser.Options{Kinds: analyzer.Kinds})
		if len(f.Directives) == 0 {
			t.Errorf("%q: no directive", c.src)
			continue
		}
		d := f.Directives[0]
		got := fmt.Sprintf("%d %d %d %v %v", d.Semicolon(), d.LBrace(), d.RBrace(), d.RawBlock(), d.Unterminated())
		if got != c.want {
			t.Errorf("%q: %s, want %s", c.src, got, c.want)
		}
	}
	// The inner directive cut short by "}" in the last case.
	f := parser.ParseString("t.conf", "http { a b }", nil)
	if d := f.Directives[0].Children()[0]; !d.Unterminated() || d.Semicolon() >= 0 {
		t.Errorf("a directive cut short by \"}\": unterminated %v, semicolon %d", d.Unterminated(), d.Semicolon())
	}
}

// TestUnclosedLongBracket: an unclosed Lua long bracket is reported where
// it opens, with lua-nginx-module's message, not at the end of the file.
func TestUnclosedLongBracket(t *testing.T) {
	src := "content_by_lua_block {\n    local s = [==[ text\n    ngx.say(s)\n}\n"
	f := parser.ParseString("/x.conf", src, &parser.Options{Kinds: analyzer.Kinds})
	if len(f.Diagnostics) == 0 {
		t.Fatal("no finding")
	}
	d := f.Diagnostics[0]
	if p := d.Start(); p.Line != 2 || p.Column != 15 || d.Message != `Lua code block missing the closing long bracket "]==]", the inlined Lua code may be too long` {
		t.Errorf("%d:%d: %s", p.Line, p.Column, d.Message)
	}
}

// TestRecovery: a file nginx refuses is read a second time the way the
// person typing it means it, and that tree is returned with the findings
// of nginx's reading (issue 30). The cases are what typing leaves behind.
func TestRecovery(t *testing.T) {
	const tail = "        location / { proxy_pass http://backend; }\n        location @fb { return 200; }\n    }\n}\n"
	const head = "http {\n    server {\n"
	tests := []struct {
		name, src, tree, faithful, errs string
	}{
		{"half-written directive above a block", head + "        server_tokens \n" + tail,
			"http{server{server_tokens location[/]{proxy_pass[http://backend]} location[@fb]{return[200]}}}", "",
			`4:20 directive "server_tokens" is not terminated by ";"`},
		{"include above a block", head + "        include \n" + tail,
			"http{server{include location[/]{proxy_pass[http://backend]} location[@fb]{return[200]}}}", "",
			`4:20 directive "include" is not terminated by ";"`},
		{"set above a block", head + "        set $y\n" + tail,
			"http{server{set[$y] location[/]{proxy_pass[http://backend]} location[@fb]{return[200]}}}", "",
			`4:20 directive "set" is not terminated by ";"`},
		// proxy_pass is not allowed in server: nginx's verdict is the
		// rule's; the parser says what is missing.
		{"proxy_pass above a block", head + "        proxy_pass http://\n" + tail,
			"http{server{proxy_pass[http://] location[/]{proxy_pass[http://backend]} location[@fb]{return[200]}}}", "",
			`3:20 missing ";" after "proxy_pass http://"`},
		{"unclosed if", head + "        location /a {\n            if ($x) {\n            return 403;\n        }\n" + tail,
			"http{server{location[/a]{if[($x)]{} return[403]} location[/]{proxy_pass[http://backend]} location[@fb]{return[200]}}}",
			"http{server{location[/a]{if[($x)]{return[403]} location[/]{proxy_pass[http://backend]} location[@fb]{return[200]}}}}",
			`11:1 unexpected end of file, expecting "}"`},
		{"stray }", head + "        }\n" + tail,
			"http{server{location[/]{proxy_pass[http://backend]} location[@fb]{return[200]}}}",
			"http{server{} location[/]{proxy_pass[http://backend]} location[@fb]{return[200]}}",
			`7:1 unexpected "}"`},
		{"unterminated quote", head + "        add_header X \"abc\n" + tail,
			"http{server{add_header[X|abc] location[/]{proxy_pass[http://backend]} location[@fb]{return[200]}}}",
			"http{server{add_header[X|abc\n        location / { proxy_pass http://backend; }\n        location @fb { return 200; }\n    }\n}\n]}}",
			`8:1 unexpected end of file, expecting ";" or "}"`},
		{"unterminated quote before quotes", head + "        add_header X \"abc\n        set $a \"ok\";\n" + tail,
			"http{server{add_header[X|abc] set[$a|ok] location[/]{proxy_pass[http://backend]} location[@fb]{return[200]}}}",
			"http{server{add_header[X|abc\n        set $a |ok\"] location[/]{proxy_pass[http://backend]} location[@fb]{return[200]}}}",
			`4:17 unexpected "o"`},
		{"missing {", head + "        location /a\n            root /srv;\n        }\n" + tail,
			"http{server{location[/a]{root[/srv]} location[/]{proxy_pass[http://backend]} location[@fb]{return[200]}}}",
			"http{server{location[/a|root|/srv]} location[/]{proxy_pass[http://backend]} location[@fb]{return[200]}}",
			`4:22 directive "location" has no opening "{"; 9:1 unexpected "}"`},
		{"missing { of an empty block", head + "        location = /404.html\n        }\n" + tail,
			"http{server{location[=|/404.html]{} location[/]{proxy_pass[http://backend]} location[@fb]{return[200]}}}",
			"http{server{location[=|/404.html]} location[/]{proxy_pass[http://backend]} location[@fb]{return[200]}}",
			`4:9 unexpected "}"; 8:1 unexpected "}"`},
		// A file written flat says nothing by its indentation: the tree
		// stays nginx's.
		{"flat file", "http {\nserver {\nlocation / {\nif ($x) {\nreturn 403;\n}\n}\n",
			"http{server{location[/]{if[($x)]{return[403]}}}}", "",
			`8:1 unexpected end of file, expecting "}"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := parser.ParseString("t.conf", tt.src, &parser.Options{Kinds: analyzer.Kinds})
			if got := flatten(f.Directives); got != tt.tree {
				t.Errorf("tree:\n got %q\nwant %q", got, tt.tree)
			}
			if got := errs(f); got != tt.errs {
				t.Errorf("errors:\n got %q\nwant %q", got, tt.errs)
			}
			for _, d := range f.Diagnostics {
				if d.File != f {
					t.Errorf("%v points at another file's tree", d)
				}
			}
			want := tt.faithful
			if want == "" {
				want = tt.tree
			}
			g := parser.ParseString("t.conf", tt.src, &parser.Options{Kinds: analyzer.Kinds, Faithful: true})
			if got := flatten(g.Directives); got != want {
				t.Errorf("nginx's tree:\n got %q\nwant %q", got, want)
			}
			if errs(g) != errs(f) {
				t.Errorf("findings differ: nginx's reading %q, recovered %q", errs(g), errs(f))
			}
		})
	}
}
