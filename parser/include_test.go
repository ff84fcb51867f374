package parser_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/nginx-lint/nginx-lint/internal/testfiles"
	"github.com/nginx-lint/nginx-lint/parser"
)

// countingFS is an in-memory file system that counts the reads of each
// path.
type countingFS struct {
	parser.Overlay
	reads map[string]int
}

func newCountingFS(files map[string]string) *countingFS {
	return &countingFS{Overlay: parser.Overlay{Files: testfiles.Under("/n", files)}, reads: map[string]int{}}
}

func (c *countingFS) ReadFile(path string) ([]byte, error) {
	c.reads[path]++
	return c.Overlay.ReadFile(path)
}

func (c *countingFS) ReadFileMax(path string, _ int64) ([]byte, error) { return c.ReadFile(path) }

// expandedSize loads /n/nginx.conf with l and returns the configuration,
// the directives Walk visits (the configuration as nginx reads it) and
// the files' own directives.
func expandedSize(t *testing.T, l *parser.Loader) (c *parser.Config, walked, own int) {
	t.Helper()
	withTimeout(t, func() {
		var err error
		c, err = l.Load("/n/nginx.conf")
		if err != nil {
			t.Fatal(err)
		}
		c.Walk(func(*parser.Directive, []*parser.Directive) bool { walked++; return true })
	})
	for _, f := range c.Files {
		own += f.DirectiveCount
	}
	return c, walked, own
}

// countFindings counts c's findings by name.
func countFindings(c *parser.Config) map[string]int {
	n := map[string]int{}
	for _, d := range c.AllDiagnostics() {
		n[d.Name]++
	}
	return n
}

// TestIncludeFanOut: forty files that each include all forty. nginx
// recurses into the first until it fails; the loader reads each file
// once, reports each include edge back into a file being read as a cycle
// once, and follows the rest (every path without a repeat, 39! of them)
// only up to the bound on repeated directives.
func TestIncludeFanOut(t *testing.T) {
	fs := newCountingFS(testfiles.IncludeFanOut(40))
	c, walked, own := expandedSize(t, &parser.Loader{FS: fs})
	if len(c.Files) != 41 {
		t.Errorf("%d files, want 41", len(c.Files))
	}
	for p, n := range fs.reads {
		if n != 1 {
			t.Errorf("%s read %d times", p, n)
		}
	}
	n := countFindings(c)
	// f001 is open when it includes f001; f002 when it includes f001 and
	// f002; ...: 1+2+...+40.
	if n[parser.NameIncludeCycle] != 820 {
		t.Errorf("%d include-cycle findings, want 820 (one per include edge back into an open file)", n[parser.NameIncludeCycle])
	}
	if n[parser.NameIncludeLimit] == 0 {
		t.Error("no include-limit finding")
	}
	if max := own + parser.DefaultMaxIncludeCopies; walked > max {
		t.Errorf("Walk visits %d directives, over the bound %d", walked, max)
	}
	if walked < parser.DefaultMaxIncludeCopies/2 {
		t.Errorf("Walk visits %d directives: the includes were cut far before the bound", walked)
	}
}

// TestIncludeChain: ten files that each include the ten of the next
// level, eight levels deep (nginx reads the last level 10^8 times). Each
// file is read once; the includes past the bound are reported where the
// total passes it, once per include directive.
func TestIncludeChain(t *testing.T) {
	fs := newCountingFS(testfiles.IncludeChain(8, 10))
	c, walked, own := expandedSize(t, &parser.Loader{FS: fs})
	if len(c.Files) != 81 || len(fs.reads) != 81 {
		t.Errorf("%d files, %d read, want 81", len(c.Files), len(fs.reads))
	}
	for p, n := range fs.reads {
		if n != 1 {
			t.Errorf("%s read %d times", p, n)
		}
	}
	if max := own + parser.DefaultMaxIncludeCopies; walked > max {
		t.Errorf("Walk visits %d directives, over the bound %d", walked, max)
	}
	var at []string
	for _, d := range c.AllDiagnostics() {
		if d.Name != parser.NameIncludeLimit {
			t.Errorf("unexpected finding %s: %s", d.Name, d.Message)
			continue
		}
		at = append(at, fmt.Sprintf("%s:%d", strings.TrimPrefix(d.FilePath(), "/n/"), d.Start().Line))
	}
	// Each file of level 1 reads 1,111,111 directives as nginx reads it,
	// over the bound alone; nginx.conf's include of level 1 too.
	want := "l1/f0.conf:1 l1/f1.conf:1 l1/f2.conf:1 l1/f3.conf:1 l1/f4.conf:1 l1/f5.conf:1 l1/f6.conf:1 l1/f7.conf:1 l1/f8.conf:1 l1/f9.conf:1 nginx.conf:3"
	if got := strings.Join(at, " "); got != want {
		t.Errorf("include-limit at\n%s\nwant\n%s", got, want)
	}
}

// TestIncludeCopiesBound: the bound counts what repeats add beyond the
// files' own directives, or four times those if more, and cuts at the
// include that passes it.
func TestIncludeCopiesBound(t *testing.T) {
	a := strings.Repeat("add_header X y;\n", 100)
	for _, tc := range []struct {
		includes int
		cut      string // line of the include-limit finding, "" for none
	}{
		// 5 includes: 105 own, 505 as nginx reads it, 400 repeated, within 4×105.
		{5, ""},
		// 6: 106 own, the sixth include takes it to 606, past 106+4×106.
		{6, "6"},
	} {
		main := "events {}\nhttp {\n" + strings.Repeat("include a.conf;\n", tc.includes) + "}\n"
		fs := newCountingFS(map[string]string{"nginx.conf": main, "a.conf": a})
		c, walked, _ := expandedSize(t, &parser.Loader{FS: fs, MaxIncludeCopies: 1})
		var cut []string
		for _, d := range c.AllDiagnostics() {
			if d.Name == parser.NameIncludeLimit {
				cut = append(cut, fmt.Sprint(d.Start().Line-2))
			}
		}
		if got := strings.Join(cut, ","); got != tc.cut {
			t.Errorf("%d includes: cut at include %q, want %q", tc.includes, got, tc.cut)
		}
		if want := 2 + tc.includes + 100*min(tc.includes, 5); walked != want {
			t.Errorf("%d includes: Walk visits %d, want %d", tc.includes, walked, want)
		}
	}
	// Without a bound nothing is cut.
	fs := newCountingFS(map[string]string{"nginx.conf": "events {}\nhttp {\n" + strings.Repeat("include a.conf;\n", 50) + "}\n", "a.conf": a})
	c, walked, _ := expandedSize(t, &parser.Loader{FS: fs, MaxIncludeCopies: -1})
	if n := countFindings(c)[parser.NameIncludeLimit]; n != 0 || walked != 2+50+5000 {
		t.Errorf("unbounded: %d findings, %d visited", n, walked)
	}
}

// TestIncludeDepth: nginx holds every file of a nested include open;
// under the usual limit of 1024 open files it fails a little past 1000
// levels (measured: "open() ... failed (24: Too many open files)" at the
// 1018th). The loader follows 1000 files and reports the include of the
// next, also when the file that is too deep was first read shallower.
func TestIncludeDepth(t *testing.T) {
	fs := newCountingFS(testfiles.IncludeNest(1100))
	c, walked, _ := expandedSize(t, &parser.Loader{FS: fs})
	var got []string
	for _, d := range c.AllDiagnostics() {
		got = append(got, fmt.Sprintf("%s:%d %s", strings.TrimPrefix(d.FilePath(), "/n/"), d.Start().Line, d.Name))
	}
	// nginx.conf is the first file open, d/f999.conf the thousandth.
	if want := "d/f999.conf:1 include-limit"; strings.Join(got, ",") != want {
		t.Errorf("findings %v, want %s", got, want)
	}
	if len(c.Files) != 1000 || walked != 3+999 {
		t.Errorf("%d files, %d directives visited; want 1000 and 1002", len(c.Files), walked)
	}

	// A file first read near the top and included again from deep down.
	files := testfiles.IncludeNest(990)
	files["nginx.conf"] = "events {}\nhttp {\n    include tall.conf;\n    include d/f1.conf;\n}\n"
	files["tall.conf"] = "include t/t1.conf;\n"
	for i := 1; i < 20; i++ {
		files[fmt.Sprintf("t/t%d.conf", i)] = fmt.Sprintf("include t/t%d.conf;\n", i+1)
	}
	files["t/t20.conf"] = "# end\n"
	files["d/f990.conf"] = "include tall.conf;\n"
	c, _, _ = expandedSize(t, &parser.Loader{FS: newCountingFS(files)})
	got = nil
	for _, d := range c.AllDiagnostics() {
		got = append(got, fmt.Sprintf("%s:%d %s", strings.TrimPrefix(d.FilePath(), "/n/"), d.Start().Line, d.Name))
	}
	// d/f990.conf is the 991st file open; tall.conf and its 20 would
	// take the chain to 1012.
	if want := "d/f990.conf:1 include-limit"; strings.Join(got, ",") != want {
		t.Errorf("findings %v, want %s", got, want)
	}
}

// BenchmarkLoadIncludeFanOut loads and walks TestIncludeFanOut's forty
// files (exponential without the bound).
func BenchmarkLoadIncludeFanOut(b *testing.B) {
	files := testfiles.Under("/n", testfiles.IncludeFanOut(40))
	for b.Loop() {
		c, _ := (&parser.Loader{FS: &parser.Overlay{Files: files}}).Load("/n/nginx.conf")
		c.Walk(func(*parser.Directive, []*parser.Directive) bool { return true })
	}
}

// BenchmarkLoadIncludeChain loads and walks TestIncludeChain's eight
// levels of ten.
func BenchmarkLoadIncludeChain(b *testing.B) {
	files := testfiles.Under("/n", testfiles.IncludeChain(8, 10))
	for b.Loop() {
		c, _ := (&parser.Loader{FS: &parser.Overlay{Files: files}}).Load("/n/nginx.conf")
		c.Walk(func(*parser.Directive, []*parser.Directive) bool { return true })
	}
}
