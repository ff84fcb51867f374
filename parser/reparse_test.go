package parser_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/parser"
)

// dumpTree renders everything a tree holds, for comparing two trees of
// one text: words with ranges, terminators, braces, comments and what
// they are attached to.
func dumpTree(f *parser.File) string {
	var b strings.Builder
	var dirs func([]*parser.Directive, string)
	comments := func(cs []*parser.Comment, indent string) {
		for _, c := range cs {
			at := -1
			if c.Directive != nil {
				at = int(c.Directive.Name().Range.Start)
			}
			fmt.Fprintf(&b, "%s#%v %q -> %d %v\n", indent, c.Range, c.Text, at, c.Trailing)
		}
	}
	dirs = func(ds []*parser.Directive, indent string) {
		for _, d := range ds {
			if d.File != f {
				fmt.Fprintf(&b, "%sFILE MISMATCH\n", indent)
			}
			fmt.Fprintf(&b, "%s%q%v", indent, d.Name().Value, d.Name().Range)
			for _, a := range d.Args() {
				fmt.Fprintf(&b, " %q%v", a.Value, a.Range)
			}
			fmt.Fprintf(&b, " ;%d {%d }%d ext%v\n", d.Semicolon(), d.LBrace(), d.RBrace(), d.Extent())
			if d.Block != nil {
				dirs(d.Block.Directives, indent+"  ")
				comments(d.Block.Comments(), indent+"  ")
			}
		}
	}
	dirs(f.Directives, "")
	comments(f.Comments, "")
	fmt.Fprintf(&b, "count %d, %d diagnostics\n", f.DirectiveCount, len(f.Diagnostics))
	return b.String()
}

// checkReparse edits src at random places and checks that every tree
// Reparse makes is the one a fresh parse makes; it returns how many
// edits were reparsed, and how many were between two texts without
// syntax errors.
func checkReparse(t *testing.T, src string, r *rand.Rand, edits int) (reparsed, clean int) {
	opts := &parser.Options{Kinds: analyzer.Kinds}
	old := parser.ParseString("/t/nginx.conf", src, opts)
	inserts := []string{"", "x", " ", ";", "\n", "}", "{", "\"", "#", "a b;\n", "location /x { return 200; }\n", "😀", "$"}
	for range edits {
		start := r.IntN(len(src) + 1)
		end := min(len(src), start+r.IntN(4))
		if r.IntN(2) == 0 {
			end = start
		}
		next := src[:start] + inserts[r.IntN(len(inserts))] + src[end:]
		got := parser.Reparse(old, next, opts)
		fresh := parser.ParseString("/t/nginx.conf", next, opts)
		if len(old.Diagnostics) == 0 && len(fresh.Diagnostics) == 0 {
			clean++
		}
		if got != nil {
			reparsed++
			if g, w := dumpTree(got), dumpTree(fresh); g != w {
				t.Fatalf("edit [%d:%d) of\n%s\nto\n%s\nreparsed:\n%s\nparsed:\n%s", start, end, src, next, g, w)
			}
		}
		// Go on from the new text, as an editor does.
		src, old = next, fresh
		if got != nil {
			old = got
		}
	}
	return reparsed, clean
}

// TestReparse: edits anywhere in the testdata configurations; wherever
// Reparse answers, its tree is the fresh parse's, and it answers for
// most edits inside blocks.
func TestReparse(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	clean, reparsed := 0, 0
	err := filepath.WalkDir(filepath.Join("..", "testdata"), func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".conf") {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		n, c := checkReparse(t, string(b), r, 40)
		reparsed, clean = reparsed+n, clean+c
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// Edits of the top level, and of a block's head or braces, are not
	// reparsed; most others are.
	t.Logf("%d edits reparsed; %d edits between texts without syntax errors", reparsed, clean)
	if reparsed < clean/2 {
		t.Errorf("only %d edits reparsed, of %d between texts without syntax errors", reparsed, clean)
	}
	// The old text is not kept by the new tree: its words are slices of
	// the new text.
	src := "http {\n    server {\n        server_name a.example;\n    }\n}\n"
	opts := &parser.Options{Kinds: analyzer.Kinds}
	old := parser.ParseString("/t/nginx.conf", src, opts)
	next := strings.Replace(src, "a.example", "b.example", 1)
	f := parser.Reparse(old, next, opts)
	if f == nil {
		t.Fatal("an edit of a server_name was not reparsed")
	}
	if w := f.Directives[0].Name(); w.Value != "http" || w.Raw(f) != "http" {
		t.Errorf("http: %+v", w)
	}
	if got := f.Directives[0].Block.Directives[0].Block.Directives[0].Args()[0].Value; got != "b.example" {
		t.Errorf("server_name %q", got)
	}
}

// FuzzReparse: any text, any edit.
func FuzzReparse(f *testing.F) {
	f.Add("http {\n    server {\n        listen 80; # x\n    }\n}\n", uint16(20), uint8(3), "a;")
	f.Add("events {}\nhttp { map $a $b { default 1; } }\n", uint16(30), uint8(0), "x 2;")
	f.Fuzz(func(t *testing.T, src string, at uint16, cut uint8, insert string) {
		if len(src) > 1<<12 {
			return
		}
		opts := &parser.Options{Kinds: analyzer.Kinds}
		old := parser.ParseString("/t/nginx.conf", src, opts)
		start := int(at) % (len(src) + 1)
		end := min(len(src), start+int(cut%8))
		next := src[:start] + insert + src[end:]
		if got := parser.Reparse(old, next, opts); got != nil {
			if g, w := dumpTree(got), dumpTree(parser.ParseString("/t/nginx.conf", next, opts)); g != w {
				t.Fatalf("reparsed:\n%s\nparsed:\n%s", g, w)
			}
		}
	})
}
