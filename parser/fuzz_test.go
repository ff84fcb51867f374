package parser_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/parser"
	"github.com/nginx-lint/nginx-lint/parser/corpustest"
)

// FuzzParse feeds arbitrary bytes to the parser. Whatever the input, it
// must return a tree whose ranges lie inside the source, with diagnostics
// positioned inside the file, without panicking or hanging. The corpus
// configs are the seeds when present.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"", "}", "{", ";", "a", "a;", "a {", "a }", "\"", "'a'b;", "a \"b\nc\";",
		"http { server { listen 80; } }", "a ${b}{c};", "x_by_lua_block { a = '}' }",
		"x_by_lua_block { --[[ } ]] }", "# c\na; # d\n", "a \\\n b;", "\xff\xfe;",
		"if ($a = \"b\") { return 200; }", "map $a $b { default 0; x { } }",
	} {
		f.Add([]byte(s))
	}
	if root, ok := corpustest.Find(); ok {
		_ = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(p, ".conf") {
				if b, err := os.ReadFile(p); err == nil && len(b) < 64<<10 {
					f.Add(b)
				}
			}
			return nil
		})
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		file := parser.ParseFile("fuzz.conf", src, &parser.Options{Kinds: analyzer.Kinds})
		checkTree(t, file, file.Directives)
		// The line index, built on first use, counts every newline.
		if p, want := file.Position(len(src)), bytes.Count(src, []byte("\n"))+1; p.Line != want || file.LineCount() != want {
			t.Fatalf("the end is on line %d of %d, want %d", p.Line, file.LineCount(), want)
		}
		for _, d := range file.Diagnostics {
			if d.Range.Start < 0 || int(d.Range.End) > len(src) || d.Range.Start > d.Range.End {
				t.Fatalf("diagnostic range %v outside [0,%d]: %v", d.Range, len(src), d)
			}
			_ = d.Start()
		}
	})
}

func checkTree(t *testing.T, f *parser.File, dirs []*parser.Directive) {
	n := int32(len(f.Src))
	for _, d := range dirs {
		r := d.Range()
		if r.Start < 0 || r.End > n || r.Start > r.End {
			t.Fatalf("directive %q range %v outside [0,%d]", d.Name().Value, r, n)
		}
		for _, a := range d.Args() {
			if a.Range.Start < 0 || a.Range.End > n || a.Range.Start > a.Range.End {
				t.Fatalf("argument %q range %v outside [0,%d]", a.Value, a.Range, n)
			}
			// The quoting read back from the source agrees with it.
			if q := a.Quote(f); q != 0 && a.Raw(f)[0] != q || q == 0 && a.Unterminated(f) {
				t.Fatalf("argument %q (raw %q): quote %q, unterminated %v", a.Value, a.Raw(f), q, a.Unterminated(f))
			}
		}
		// The ends read back from the offsets are what they say.
		for _, e := range []struct {
			at int32
			c  byte
		}{{d.Semicolon(), ';'}, {d.LBrace(), '{'}, {d.RBrace(), '}'}} {
			if e.at >= 0 && (e.at >= n || f.Src[e.at] != e.c) {
				t.Fatalf("directive %q: %q at %d is not in the source", d.Name().Value, e.c, e.at)
			}
		}
		if d.Semicolon() >= 0 && (d.LBrace() >= 0 || d.Unterminated() || d.Block != nil) {
			t.Fatalf("directive %q ends with \";\" but has a brace, a block or is unterminated", d.Name().Value)
		}
		if d.RawBlock() && d.Block != nil {
			t.Fatalf("raw block %q has a parsed block", d.Name().Value)
		}
		if d.Block != nil {
			checkTree(t, f, d.Block.Directives)
		}
	}
}

// TestHostileInput feeds shapes that break naive parsers: deep nesting,
// a 50 MB file, an endless quote, an endless comment. The parser must
// return with positioned errors.
func TestHostileInput(t *testing.T) {
	cases := map[string]string{
		"deep":         strings.Repeat("a {", 1_000_000),
		"deep-closed":  strings.Repeat("a {", 100_000) + strings.Repeat("}", 100_000),
		"huge":         strings.Repeat("server { listen 127.0.0.1:80; server_name a.example; }\n", 900_000),
		"open-quote":   "a \"" + strings.Repeat("x", 10<<20),
		"open-comment": "#" + strings.Repeat("x", 10<<20),
		"braces":       strings.Repeat("}", 1_000_000),
		"lua":          "a_by_lua_block {" + strings.Repeat("[[", 100_000),
	}
	for name, src := range cases {
		t.Run(name, func(t *testing.T) {
			f := parser.ParseString("x.conf", src, &parser.Options{Kinds: analyzer.Kinds})
			checkTree(t, f, f.Directives)
			// A file may end inside a comment; nginx accepts that.
			wantErrs := name != "huge" && name != "open-comment"
			if wantErrs && len(f.Diagnostics) == 0 {
				t.Fatal("no diagnostic for broken input")
			}
			if !wantErrs && len(f.Diagnostics) != 0 {
				t.Fatalf("unexpected diagnostic: %v", f.Diagnostics[0])
			}
		})
	}
}
