package analyzer_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/directives"
	"github.com/nginx-lint/nginx-lint/analyzer/internal/door"
	"github.com/nginx-lint/nginx-lint/parser"
)

// TestIndexAgainstWalk checks the index's packed entries against
// Config.Walk, which knows nothing of them: each entry's context (kept as
// a bit number) is the one the enclosing blocks open, the stacks
// WalkEntries hands out (kept by entry, not by depth) are Walk's, and
// End(i) closes i's block where the depth falls back. The configuration
// includes one file in two servers, so the same directives stand in two
// places, and has map and types bodies, whose context is 0.
func TestIndexAgainstWalk(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"nginx.conf": `events {}
http {
    map $uri $m { default 0; ~^/a 1; }
    types { text/html html; }
    server { listen 80; include common.conf; location / { if ($m) { return 404; } } }
    server { listen 81; include common.conf; }
}
stream { upstream u { server 127.0.0.1:1; } server { listen 53 udp; proxy_pass u; } }
`,
		"common.conf": "location /c { limit_except GET { deny all; } location /c/d { root /x; } }\nindex index.html;\n",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	c, err := (&parser.Loader{Prefix: dir, Kinds: analyzer.Kinds}).Load(filepath.Join(dir, "nginx.conf"))
	if err != nil {
		t.Fatal(err)
	}
	type visit struct {
		d     *parser.Directive
		ctx   directives.Context
		stack []*parser.Directive
	}
	var want []visit
	c.Walk(func(d *parser.Directive, stack []*parser.Directive) bool {
		ctx := directives.Main
		for _, s := range stack {
			if ctx != 0 {
				ctx, _ = directives.ChildContext(s.Name().Value, ctx)
			}
		}
		want = append(want, visit{d, ctx, slices.Clone(stack)})
		return true
	})
	ix := analyzer.NewIndex(c)
	if len(ix.Entries) != len(want) || len(want) < 25 {
		t.Fatalf("%d entries, Walk visits %d (want the same, at least 25)", len(ix.Entries), len(want))
	}
	seen := map[directives.Context]bool{}
	for i := range ix.Entries {
		e, w := &ix.Entries[i], want[i]
		seen[e.Context()] = true
		if e.Directive != w.d || e.Context() != w.ctx {
			t.Errorf("entry %d: %s in %v, Walk: %s in %v", i, e.Directive.Name().Value, e.Context(), w.d.Name().Value, w.ctx)
		}
		end := i + 1
		for end < len(want) && len(want[end].stack) > len(w.stack) {
			end++
		}
		if got := ix.End(int32(i)); int(got) != end {
			t.Errorf("End(%d) (%s) = %d, want %d", i, e.Directive.Name().Value, got, end)
		}
	}
	for _, ctx := range []directives.Context{0, directives.Main, directives.HTTP, directives.Location, directives.LimitExcept, directives.IfInLocation, directives.Map, directives.StreamUpstream} {
		if !seen[ctx] {
			t.Errorf("no entry in context %v: the test does not cover it", ctx)
		}
	}
	// The walks the rules use hand out Walk's stacks.
	i := 0
	rule := &analyzer.Rule{Code: "NL5903", Name: "walks", Title: "walks", Doc: analyzer.Doc{Text: "t", Bad: "x;", Good: "y;"},
		Run: func(p *analyzer.Pass) {
			p.WalkEntries(func(e *analyzer.Entry, stack []*parser.Directive) {
				if !slices.Equal(stack, want[i].stack) {
					t.Errorf("WalkEntries at %d (%s): stack of %d, Walk's of %d", i, e.Directive.Name().Value, len(stack), len(want[i].stack))
				}
				i++
			})
			j := 0
			p.WalkContext(func(d *parser.Directive, ctx directives.Context, stack []*parser.Directive) {
				if d != want[j].d || ctx != want[j].ctx || !slices.Equal(stack, want[j].stack) {
					t.Errorf("WalkContext at %d differs from Walk", j)
				}
				j++
			})
			// WalkNamed keeps its stack from one named entry to the
			// next, however far apart: the stacks are Walk's still.
			for _, names := range [][]string{{"root"}, {"deny", "index"}, {"location", "return", "proxy_pass"}, {"http", "stream", "index", "root"}} {
				k, met := 0, 0
				p.WalkNamed(func(d *parser.Directive, ctx directives.Context, stack []*parser.Directive) {
					for k < len(want) && !(want[k].d == d && slices.Contains(names, d.Name().Value)) {
						k++
					}
					if k == len(want) {
						t.Fatalf("WalkNamed%v met %s out of reading order", names, d.Name().Value)
					}
					if !slices.Equal(stack, want[k].stack) {
						t.Errorf("WalkNamed%v at %s (entry %d): stack of %d, Walk's of %d", names, d.Name().Value, k, len(stack), len(want[k].stack))
					}
					k++
					met++
				}, names...)
				if met < 2 {
					t.Errorf("WalkNamed%v met %d entries, want at least 2", names, met)
				}
			}
		}}
	reg, err := analyzer.NewRegistry(rule)
	if err != nil {
		t.Fatal(err)
	}
	analyzer.RunRules(door.Key{}, c, reg, analyzer.Options{})
	// Kept stacks share arrays, and stay Walk's after the stacks of the
	// entries after them, in other branches, are handed out.
	for _, every := range []int{1, 2, 3} {
		ks := analyzer.NewKeptStacks(ix)
		kept := map[int][]*parser.Directive{}
		for k := 0; k < len(want); k += every {
			kept[k] = ks.At(int32(k))
		}
		for k, st := range kept {
			if !slices.Equal(st, want[k].stack) {
				t.Errorf("KeptStacks (every %d) at %d (%s): stack of %d, Walk's of %d", every, k, want[k].d.Name().Value, len(st), len(want[k].stack))
			}
		}
	}
	if i != len(want) {
		t.Errorf("WalkEntries visited %d entries, want %d", i, len(want))
	}
}

// TestIndexMapKeysUnnamed checks that the keys of map and geo blocks get
// no name unless a directive table knows the word: Names leaves them out
// and Named finds nothing for them, while the entries stay in the index
// and the names used elsewhere (even in a map, and the same word outside
// one) are grouped as before.
func TestIndexMapKeysUnnamed(t *testing.T) {
	src := `http {
    map $uri $m { default 0; /a 1; ~^/b 2; include m.conf; }
    geo $g { default 0; 10.0.0.0/8 1; }
    server { listen 80; location /a { return 200; } }
}
stream { map $remote_addr $s { 127.0.0.1 1; } }
`
	f := parser.ParseString("/x/nginx.conf", src, &parser.Options{Kinds: analyzer.Kinds})
	c := &parser.Config{Main: f, Files: []*parser.File{f}}
	ix := analyzer.NewIndex(c)
	for _, key := range []string{"/a", "~^/b", "10.0.0.0/8", "127.0.0.1"} {
		if slices.Contains(ix.Names(), key) || len(ix.Named(key)) != 0 {
			t.Errorf("map or geo key %q: in Names %v, Named %v; want neither", key, slices.Contains(ix.Names(), key), ix.Named(key))
		}
	}
	keys := 0
	for i := range ix.Entries {
		if ix.Entries[i].Context()&(directives.Map|directives.Geo|directives.StreamMap) != 0 {
			keys++
		}
	}
	if keys != 7 {
		t.Errorf("%d entries in map and geo bodies, want 7 (they stay in the index)", keys)
	}
	for name, want := range map[string]int{"include": 1, "map": 2, "geo": 1, "listen": 1, "location": 1, "return": 1} {
		if got := len(ix.Named(name)); got != want || !slices.Contains(ix.Names(), name) {
			t.Errorf("Named(%q): %d entries (in Names: %v), want %d", name, got, slices.Contains(ix.Names(), name), want)
		}
	}
	if got := ix.Named("map", "listen", "include"); len(got) != 4 || !slices.IsSorted(got) {
		t.Errorf("Named(map, listen, include) = %v, want 4 entries in reading order", got)
	}
}

// TestNamedSeveral checks Named and WalkNamed with several names (merged
// from the per-name lists, or sorted past a few lists) against the
// entries filtered in reading order.
func TestNamedSeveral(t *testing.T) {
	var src strings.Builder
	src.WriteString("events {}\nhttp {\n")
	for i := range 30 {
		fmt.Fprintf(&src, "server { listen %d; server_name s%d; location / { root /r; index i; }", 8000+i, i)
		if i%3 == 0 {
			src.WriteString(" location /p { proxy_pass http://u; }")
		}
		src.WriteString(" }\n")
	}
	src.WriteString("}\n")
	f := parser.ParseFile("/t/nginx.conf", []byte(src.String()), &parser.Options{Kinds: analyzer.Kinds})
	c := &parser.Config{Main: f, Files: []*parser.File{f}}
	ix := analyzer.NewIndex(c)
	for _, names := range [][]string{
		{"location", "listen"},
		{"proxy_pass", "root", "server_name"},
		{"nosuch", "index", "nosuch2"},
		{"nosuch"},
		{"listen", "listen"},
		{"server", "listen", "server_name", "location", "root", "index", "proxy_pass", "http", "events", "nosuch"},
	} {
		var want []int32
		for i := range ix.Entries {
			for _, n := range names {
				if ix.Entries[i].Directive.Name().Value == n {
					want = append(want, int32(i))
				}
			}
		}
		if got := ix.Named(names...); !slices.Equal(got, want) {
			t.Errorf("Named(%q) = %v, want %v", names, got, want)
		}
		var walked []*parser.Directive
		rule := &analyzer.Rule{Code: "NL5903", Name: "walks", Title: "walks", Doc: analyzer.Doc{Text: "t", Bad: "x;", Good: "y;"},
			Run: func(p *analyzer.Pass) {
				p.WalkNamed(func(d *parser.Directive, _ directives.Context, _ []*parser.Directive) { walked = append(walked, d) }, names...)
			}}
		reg, err := analyzer.NewRegistry(rule)
		if err != nil {
			t.Fatal(err)
		}
		analyzer.RunRules(door.Key{}, c, reg, analyzer.Options{})
		if len(walked) != len(want) {
			t.Fatalf("WalkNamed(%q) visited %d, want %d", names, len(walked), len(want))
		}
		for k, i := range want {
			if walked[k] != ix.Entries[i].Directive {
				t.Errorf("WalkNamed(%q) visit %d is %s, want %s", names, k, walked[k].Name().Value, ix.Entries[i].Directive.Name().Value)
			}
		}
	}
}
