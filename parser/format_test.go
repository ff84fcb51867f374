package parser_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/internal/testfiles"
	"github.com/nginx-lint/nginx-lint/parser"
	"github.com/nginx-lint/nginx-lint/parser/corpustest"
)

func TestFormat(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"indent and structure", "http{server{listen   80;\nserver_name a  b;}}",
			"http {\n    server {\n        listen   80;\n        server_name a  b;\n    }\n}\n"},
		{"comments kept in place", "# top\nhttp { # after brace\n    gzip on; # trailing\n\n\n    # lead\n    root /srv;\n}\n",
			"# top\nhttp { # after brace\n    gzip on; # trailing\n\n\n    # lead\n    root /srv;\n}\n"},
		{"comment under the brace", "http {\n# first\ngzip on;\n}\n", "http {\n    # first\n    gzip on;\n}\n"},
		{"block of a comment only", "events { # none\n}\n", "events { # none\n}\n"},
		{"quotes and escapes as written", "return 200 'a\\'b' \"x y\" \\;;\n", "return 200 'a\\'b' \"x y\" \\;;\n"},
		{"multi-line words move with their line", "http {\nlog_format main '$a'\n    '$b';\n}\n",
			"http {\n    log_format main '$a'\n        '$b';\n}\n"},
		{"a line inside a quoted word stays", "http {\n\tgzip on;\n\tgzip_vary on;\n  return 200 'a\n  b'\n  'c';\n}\n",
			"http {\n\tgzip on;\n\tgzip_vary on;\n\treturn 200 'a\n  b'\n\t'c';\n}\n"},
		{"comment between words kept", "http {\nlisten 80 # why\n;\n}\n", "http {\n    listen 80 # why\n    ;\n}\n"},
		{"empty block", "events{}\n", "events {}\n"},
		{"empty block as written", "location / { }\n", "location / { }\n"},
		{"empty block over lines", "location = /x {\n  }\n", "location = /x {\n}\n"},
		{"lua body untouched", "content_by_lua_block {\n  local a = { 1 }\n    ngx.say(a)\n}\n",
			"content_by_lua_block {\n  local a = { 1 }\n    ngx.say(a)\n}\n"},
		{"map entries", "map $a $b {\ndefault 0;\n~^x 1;\n}\n", "map $a $b {\n    default 0;\n    ~^x 1;\n}\n"},
		{"crlf input", "a b;\r\nc d;\r\n", "a b;\r\nc d;\r\n"},
		{"crlf block", "http {\r\ngzip on;\r\n}\r\n", "http {\r\n    gzip on;\r\n}\r\n"},
		{"mixed line endings", "a b;\r\nc d;\n", "a b;\nc d;\n"},
		{"empty", "", ""},
		{"blanks only", "\n\n  \n", ""},
		// The file's own indentation: tabs, two spaces.
		{"tabs kept", "http {\n\tgzip on;\n\tserver {\n\t\tlisten 80;\n  root /x;\n\t}\n}\n",
			"http {\n\tgzip on;\n\tserver {\n\t\tlisten 80;\n\t\troot /x;\n\t}\n}\n"},
		{"two spaces kept", "http {\n  gzip on;\n  server {\n    listen 80;\n        root /x;\n  }\n}\n",
			"http {\n  gzip on;\n  server {\n    listen 80;\n    root /x;\n  }\n}\n"},
		// Aligned columns, the gap before ";" and before a trailing
		// comment stay; the gap before "{" is one space.
		{"alignment kept", "types {\n    text/html   html;\n    image/gif\tgif ;   # x\n}\nserver  {\n}\n",
			"types {\n    text/html   html;\n    image/gif\tgif ;   # x\n}\nserver {\n}\n"},
		// Blank lines: at the start of the file and of a block, before
		// "}", at the end, runs of several.
		{"blank lines kept", "\nhttp {\n\n    gzip on;\n\n\n\n    root /x;\n\n}\n\n",
			"\nhttp {\n\n    gzip on;\n\n\n\n    root /x;\n\n}\n\n"},
		// Comments: at column 0 in an indented block (code commented
		// out) they stay; deeper than the block they keep the extra.
		{"comment columns", "http {\n    gzip on;\n#    server {\n#    }\n        # more\n  # shallow\n}\n",
			"http {\n    gzip on;\n#    server {\n#    }\n        # more\n    # shallow\n}\n"},
		{"one line split", "a b; c d; e {f g;}", "a b;\nc d;\ne {\n    f g;\n}\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parser.Format(parser.ParseString("t.conf", tt.in, nil))
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("got:\n%q\nwant:\n%q", got, tt.want)
			}
		})
	}
	if _, err := parser.Format(parser.ParseString("t.conf", "http {\n", nil)); !errors.Is(err, parser.ErrNotFormattable) {
		t.Errorf("broken file formatted: %v", err)
	}
}

func TestFormatOptions(t *testing.T) {
	const tabbed = "http {\n\tgzip  on;   # x\n\n\n\n\tlog_format m '$a'\n\t           '$b';\n\t# note\n\t\t# deeper\n}\n"
	tests := []struct {
		name string
		in   string
		opts parser.FormatOptions
		want string
	}{
		{"spaces over tabs", tabbed, parser.FormatOptions{Spaces: 2},
			"http {\n  gzip  on;   # x\n\n\n\n  log_format m '$a'\n             '$b';\n  # note\n  \t# deeper\n}\n"},
		{"a terminator line moves with its directive", "http {\n  listen 80 # why\n    ;\n}\n", parser.FormatOptions{Tabs: true},
			"http {\n\tlisten 80 # why\n\t  ;\n}\n"},
		{"single spacing empties a block", "location / { }\n", parser.FormatOptions{Spacing: parser.SpacingSingle}, "location / {}\n"},
		{"tabs over spaces", "http{server{listen 80;}}", parser.FormatOptions{Tabs: true, Spaces: 2},
			"http {\n\tserver {\n\t\tlisten 80;\n\t}\n}\n"},
		{"single spacing", tabbed, parser.FormatOptions{Spacing: parser.SpacingSingle},
			"http {\n\tgzip on; # x\n\n\n\n\tlog_format m '$a'\n\t           '$b';\n\t# note\n\t\t# deeper\n}\n"},
		{"blank lines capped", tabbed, parser.FormatOptions{MaxBlankLines: 1},
			"http {\n\tgzip  on;   # x\n\n\tlog_format m '$a'\n\t           '$b';\n\t# note\n\t\t# deeper\n}\n"},
		// Default applies only to a file that shows no indentation.
		{"default for a flat file", "http{gzip on;}", parser.FormatOptions{Default: parser.Indent{Tabs: true}}, "http {\n\tgzip on;\n}\n"},
		{"default loses to the file", tabbed, parser.FormatOptions{Default: parser.Indent{Spaces: 3}}, tabbed},
		{"four spaces by default", "http{gzip on;}", parser.FormatOptions{}, "http {\n    gzip on;\n}\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := parser.ParseString("t.conf", tt.in, nil)
			got, err := parser.FormatWith(f, tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("got:\n%q\nwant:\n%q", got, tt.want)
			}
		})
	}
}

func TestDetectIndent(t *testing.T) {
	tests := []struct {
		in   string
		want parser.Indent
		ok   bool
	}{
		{"a b;\nc d;\n", parser.Indent{}, false},
		{"http {\ngzip on;\n}\n", parser.Indent{}, false},
		{"http {\n\tgzip on;\n}\n", parser.Indent{Tabs: true}, true},
		{"http {\n  a b;\n  s {\n    c d;\n  }\n}\n", parser.Indent{Spaces: 2}, true},
		{"http {\n    a b;\n    s {\n        c d;\n    }\n}\n", parser.Indent{Spaces: 4}, true},
		// The majority wins; a mixed line does not vote.
		{"http {\n\ta b;\n\tc d;\n    e f;\n \tg h;\n}\n", parser.Indent{Tabs: true}, true},
		{"http {\n   a b;\n   c d;\n\te f;\n}\n", parser.Indent{Spaces: 3}, true},
		// On a tie, the narrower width.
		{"http {\n    a b;\n  c d;\n}\n", parser.Indent{Spaces: 2}, true},
		// Comments and continuation lines do not vote.
		{"http {\n# x\n\t\t# y\nlog_format m 'a'\n    'b';\n}\n", parser.Indent{}, false},
	}
	for _, tt := range tests {
		got, ok := parser.DetectIndent(parser.ParseString("t.conf", tt.in, nil))
		if got != tt.want || ok != tt.ok {
			t.Errorf("%q: got %+v %v, want %+v %v", tt.in, got, ok, tt.want, tt.ok)
		}
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
			fmt.Fprintf(&b, "%d %q %q\n", depth, d.Name().Value, d.ArgValues())
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

// checkFormat formats src with o and checks the result reads the same and
// is a fixed point.
func checkFormat(t *testing.T, name string, src []byte, o parser.FormatOptions) {
	t.Helper()
	f := parser.ParseFile(name, src, &parser.Options{Kinds: analyzer.Kinds})
	out, err := parser.FormatWith(f, o)
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
	again, err := parser.FormatWith(g, o)
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
		for _, o := range corpusOptions {
			checkFormat(t, p, src, o)
		}
		n++
		return nil
	})
	if n < 500 {
		t.Fatalf("only %d files", n)
	}
}

// corpusOptions are the layouts the corpus and the fuzzer check: the
// defaults, and each setting changed.
var corpusOptions = []parser.FormatOptions{
	{},
	{Tabs: true, Spacing: parser.SpacingSingle},
	{Spaces: 2, MaxBlankLines: 1},
	{Default: parser.Indent{Spaces: 3}, MaxBlankLines: 2},
}

func FuzzFormat(f *testing.F) {
	for _, s := range []string{"a b;", "a { b c; } # x\n", "a 'b' \"c\" \\d;", "x_by_lua_block { } ", "a b\n# c\n;",
		"http {\n\tlog_format m 'a'\n\t\t'b';\n#\tx\n\t\t# y\n\n\n}\n", "\ns {\n  a  b ;  # c\n  l {\n  }\n}\n\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		for _, o := range corpusOptions {
			checkFormat(t, "fuzz.conf", src, o)
		}
	})
}

// BenchmarkFormatTrailingComments formats 50,000 directives that each
// carry a trailing comment (about 1 MB): each comment takes back the
// newline before it, which must not copy what was printed so far.
func BenchmarkFormatTrailingComments(b *testing.B) {
	var src strings.Builder
	src.WriteString("http {\n")
	for i := range 50000 {
		fmt.Fprintf(&src, "\ta%d  on;   # c\n", i)
	}
	src.WriteString("}\n")
	f := parser.ParseString("big.conf", src.String(), nil)
	b.SetBytes(int64(src.Len()))
	for b.Loop() {
		if _, err := parser.Format(f); err != nil {
			b.Fatal(err)
		}
	}
}

// TestFormatDeepIndentCapped: blocks nested deeper than 64 levels are
// indented as 64 are, so the output of a chain of blocks thousands deep
// stays within a few times its input rather than growing with the square
// of its depth; formatting it again changes nothing.
func TestFormatDeepIndentCapped(t *testing.T) {
	src := testfiles.NestedLocations(3000, "127.0.0.1:80", testfiles.Location, "return 200 deep;")
	f := parser.ParseString("nginx.conf", src, &parser.Options{Kinds: analyzer.Kinds})
	out, err := parser.FormatWith(f, parser.FormatOptions{Spaces: 2})
	if err != nil {
		t.Fatal(err)
	}
	widest := 0
	for _, l := range strings.Split(string(out), "\n") {
		widest = max(widest, len(l)-len(strings.TrimLeft(l, " ")))
	}
	if widest != 64*2 || len(out) > 20*len(src) {
		t.Errorf("widest indentation %d, want %d; %d bytes out of %d", widest, 64*2, len(out), len(src))
	}
	g := parser.ParseString("nginx.conf", string(out), &parser.Options{Kinds: analyzer.Kinds})
	if len(g.Diagnostics) != 0 || g.DirectiveCount != f.DirectiveCount {
		t.Fatalf("the output reads back with %v, %d directives of %d", g.Diagnostics, g.DirectiveCount, f.DirectiveCount)
	}
	if again, _ := parser.Format(g); string(again) != string(out) {
		t.Error("formatting the output again changes it")
	}
}
