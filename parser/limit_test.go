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
)

// TestDefaultMaxFileSize: a 30 MiB generated configuration is read by
// default (it was refused at 16 MiB), and so is a 100 MiB one (refused at
// 64 MiB); a file over 128 MiB is not.
func TestDefaultMaxFileSize(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		size    int64
		refused bool
	}{{30 << 20, false}, {100 << 20, false}, {parser.DefaultMaxFileSize, false}, {parser.DefaultMaxFileSize + 1, true}} {
		p := filepath.Join(dir, "big.conf")
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Truncate(p, c.size); err != nil {
			t.Fatal(err)
		}
		_, err := (&parser.Loader{}).ReadFile(p)
		var tl *parser.TooLargeError
		if errors.As(err, &tl) != c.refused || !c.refused && err != nil {
			t.Errorf("%d bytes: err %v, refused want %v", c.size, err, c.refused)
		}
	}
}

// TestNestingDepth: blocks nested as deep as nginx reads them (MaxDepth,
// http and server included) parse without a finding, in a main file and
// in a file included that deep; one more level is an error at the block
// that passes the bound, with its line and column, and the blocks around
// it still close.
func TestNestingDepth(t *testing.T) {
	deepest := parser.MaxDepth - 2 // locations inside http and server
	for _, c := range []struct {
		n    int
		want string // the error's position, "" for none
	}{
		{deepest, ""},
		{deepest + 1, fmt.Sprintf("nginx.conf:%d:1", 4+deepest+1)},
		{deepest + 50, fmt.Sprintf("nginx.conf:%d:1", 4+deepest+1)},
	} {
		src := testfiles.NestedLocations(c.n, "127.0.0.1:80", testfiles.Location, "return 200 deep;")
		f := parser.ParseString("nginx.conf", src, &parser.Options{Kinds: analyzer.Kinds})
		if c.want == "" {
			if len(f.Diagnostics) != 0 {
				t.Errorf("%d nested locations: %v", c.n, f.Diagnostics[0])
			}
			depth := 0
			for d := f.Directives[len(f.Directives)-1]; d.Block != nil; depth++ {
				d = d.Block.Directives[len(d.Block.Directives)-1]
			}
			if depth != parser.MaxDepth {
				t.Errorf("%d nested locations: a tree %d blocks deep, want %d", c.n, depth, parser.MaxDepth)
			}
			continue
		}
		if len(f.Diagnostics) != 1 {
			t.Fatalf("%d nested locations: %d findings, want 1: %v", c.n, len(f.Diagnostics), f.Diagnostics)
		}
		d := f.Diagnostics[0]
		p := d.Start()
		if got := fmt.Sprintf("%s:%d:%d", d.Path, p.Line, p.Column); got != c.want || !strings.Contains(d.Message, fmt.Sprintf("blocks nested more than %d deep", parser.MaxDepth)) {
			t.Errorf("%d nested locations: %s: %s, want %s: blocks nested more than %d deep", c.n, got, d.Message, c.want, parser.MaxDepth)
		}
	}
	// A file included inside blocks counts them.
	body := strings.Repeat("location / {\n", deepest) + strings.Repeat("}\n", deepest)
	for _, anc := range [][]string{{"http", "server"}, {"http", "server", "location"}} {
		f := parser.ParseString("loc.conf", body, &parser.Options{Kinds: analyzer.Kinds, Ancestors: anc})
		if tooDeep := len(anc) > 2; tooDeep != (len(f.Diagnostics) == 1) {
			t.Errorf("%d locations inside %v: %v", deepest, anc, f.Diagnostics)
		}
	}
}
