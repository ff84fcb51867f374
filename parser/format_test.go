package parser_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/parser"
	"github.com/nginx-lint/nginx-lint/parser/corpustest"
)

func TestFormat(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"indent and spacing", "http{server{listen   80;\nserver_name a  b;}}",
			"http {\n    server {\n        listen 80;\n        server_name a b;\n    }\n}\n"},
		{"comments kept in place", "# top\nhttp { # after brace\n  gzip on; # trailing\n\n\n  # lead\n  root /srv;\n}\n",
			"# top\nhttp { # after brace\n    gzip on; # trailing\n\n    # lead\n    root /srv;\n}\n"},
		{"comment under the brace", "http {\n# first\ngzip on;\n}\n", "http {\n    # first\n    gzip on;\n}\n"},
		{"block of a comment only", "events { # none\n}\n", "events { # none\n}\n"},
		{"quotes and escapes as written", "return 200 'a\\'b' \"x y\" \\;;\n", "return 200 'a\\'b' \"x y\" \\;;\n"},
		{"multi-line words kept", "http {\nlog_format main '$a'\n        '$b';\n}\n",
			"http {\n    log_format main '$a'\n        '$b';\n}\n"},
		{"comment between words kept", "http {\nlisten 80 # why\n;\n}\n", "http {\n    listen 80 # why\n    ;\n}\n"},
		{"empty block", "events{}\n", "events {}\n"},
		{"lua body untouched", "content_by_lua_block {\n  local a = { 1 }\n    ngx.say(a)\n}\n",
			"content_by_lua_block {\n  local a = { 1 }\n    ngx.say(a)\n}\n"},
		{"map entries", "map $a $b {\ndefault 0;\n~^x 1;\n}\n", "map $a $b {\n    default 0;\n    ~^x 1;\n}\n"},
		{"crlf input", "a b;\r\nc d;\r\n", "a b;\nc d;\n"},
		{"empty", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parser.Format(parser.ParseString("t.conf", tt.in, nil))
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("got:\n%s\nwant:\n%s", got, tt.want)
			}
		})
	}
	nested := parser.ParseString("t.conf", "http{server{listen 80;}}", nil)
	for _, o := range []struct {
		opts parser.FormatOptions
		want string
	}{
		{parser.FormatOptions{Spaces: 2}, "http {\n  server {\n    listen 80;\n  }\n}\n"},
		{parser.FormatOptions{Tabs: true, Spaces: 2}, "http {\n\tserver {\n\t\tlisten 80;\n\t}\n}\n"},
		{parser.FormatOptions{}, "http {\n    server {\n        listen 80;\n    }\n}\n"},
	} {
		if got, err := parser.FormatWith(nested, o.opts); err != nil || string(got) != o.want {
			t.Errorf("%+v: got %q, %v", o.opts, got, err)
		}
	}
	if _, err := parser.Format(parser.ParseString("t.conf", "http {\n", nil)); !errors.Is(err, parser.ErrNotFormattable) {
		t.Errorf("broken file formatted: %v", err)
	}
}

// shape renders what nginx reads from a file (directive names, argument
// values, nesting) and its comments, to check that formatting changes
// layout only.
func shape(f *parser.File) string {
	var b strings.Builder
	var walk func(ds []*parser.Directive, depth int)
	walk = func(ds []*parser.Directive, depth int) {
		for _, d := range ds {
			fmt.Fprintf(&b, "%d %q %q\n", depth, d.Name.Value, d.ArgValues())
			if d.Block != nil {
				walk(d.Block.Directives, depth+1)
			}
		}
	}
	walk(f.Directives, 0)
	var comments []string
	var collect func(cs []*parser.Comment, ds []*parser.Directive)
	collect = func(cs []*parser.Comment, ds []*parser.Directive) {
		for _, c := range cs {
			comments = append(comments, strings.TrimRight(c.Text, " \t\r"))
		}
		for _, d := range ds {
			if d.Block != nil {
				collect(d.Block.Comments(), d.Block.Directives)
			}
		}
	}
	collect(f.Comments, f.Directives)
	b.WriteString(strings.Join(comments, "\n"))
	return b.String()
}

// checkFormat formats src and checks the result reads the same and is a
// fixed point.
func checkFormat(t *testing.T, name string, src []byte) {
	t.Helper()
	f := parser.ParseFile(name, src, &parser.Options{Kinds: analyzer.Kinds})
	out, err := parser.Format(f)
	if errors.Is(err, parser.ErrNotFormattable) {
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	g := parser.ParseFile(name, out, &parser.Options{Kinds: analyzer.Kinds})
	if len(g.Diagnostics) > 0 {
		t.Fatalf("%s: formatting broke the file: %v\n%s", name, g.Diagnostics[0], out)
	}
	if a, b := shape(f), shape(g); a != b {
		t.Fatalf("%s: formatting changed what nginx reads:\nbefore:\n%s\nafter:\n%s\nformatted:\n%s", name, a, b, out)
	}
	again, err := parser.Format(g)
	if err != nil || string(again) != string(out) {
		t.Fatalf("%s: not a fixed point (%v):\n%s\n---\n%s", name, err, out, again)
	}
}

// TestFormatCorpus formats every corpus config that parses cleanly.
func TestFormatCorpus(t *testing.T) {
	root := corpustest.Root(t)
	n := 0
	_ = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !(strings.HasSuffix(p, ".conf") || strings.HasSuffix(p, ".types")) {
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		checkFormat(t, p, src)
		n++
		return nil
	})
	if n < 500 {
		t.Fatalf("only %d files", n)
	}
}

func FuzzFormat(f *testing.F) {
	for _, s := range []string{"a b;", "a { b c; } # x\n", "a 'b' \"c\" \\d;", "x_by_lua_block { } ", "a b\n# c\n;"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) { checkFormat(t, "fuzz.conf", src) })
}
