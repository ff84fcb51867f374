package analyzer

import (
	"slices"
	"sync"

	"github.com/nginx-lint/nginx-lint/analyzer/directives"
	"github.com/nginx-lint/nginx-lint/parser"
)

// Index is the configuration flattened in nginx's reading order (includes
// expanded), with each directive's context. It is computed once per run and
// shared by every rule, in the manner of go/analysis's inspect pass: twenty
// rules walking a hundred thousand directives each would otherwise cost
// more than parsing.
type Index struct {
	Entries []Entry

	// nameIDs numbers each entry's name (an index into names), for Named.
	nameIDs    []int32
	names      []string
	byNameOnce sync.Once
	byName     map[string][]int32
}

// Entry is one directive as nginx meets it. (Fields are ordered to pack
// into 32 bytes: a big configuration has a hundred thousand entries.)
type Entry struct {
	Directive *parser.Directive
	// Row is the directive table's row for the directive in Context (nil
	// when unknown there), and Known whether any row has its name. They
	// are looked up once here because several rules need them.
	Row *directives.Directive
	// Context is where the directive appears; 0 inside blocks whose body
	// the directive tables do not describe (map entries, types, Lua).
	Context directives.Context
	// Parent is the index of the enclosing block directive, -1 at the top.
	Parent int32
	// Depth is the number of enclosing block directives.
	Depth int32
	Known bool
}

// rowCache memoizes table lookups by (context, name) while indexing: a big
// configuration repeats a few names many thousand times. Each slot also
// carries the name's number, so that grouping the entries by name costs
// no string hashing per entry.
type rowCache struct {
	slots [256]struct {
		ctx   directives.Context
		name  string
		row   *directives.Directive
		known bool
		id    int32
	}
	children [64]struct {
		ctx, inner directives.Context
		name       string
	}
	// ids numbers the distinct names, names lists them by number.
	ids   map[string]int32
	names []string
}

// child is directives.ChildContext (0 when the body is not described),
// memoized.
func (rc *rowCache) child(ctx directives.Context, name string) directives.Context {
	h := uint(ctx)*31 + uint(len(name))*7
	if len(name) > 0 {
		h += uint(name[0])
	}
	e := &rc.children[h&63]
	if e.name == name && e.ctx == ctx && name != "" {
		return e.inner
	}
	inner, _ := directives.ChildContext(name, ctx)
	e.ctx, e.name, e.inner = ctx, name, inner
	return inner
}

func (rc *rowCache) lookup(ctx directives.Context, name string) (*directives.Directive, bool, int32) {
	h := uint(ctx)*31 + uint(len(name))*17
	if len(name) > 0 {
		h += uint(name[0])*7 + uint(name[len(name)-1])*13 + uint(name[len(name)/2])
	}
	e := &rc.slots[h&255]
	if e.name == name && e.ctx == ctx && name != "" {
		return e.row, e.known, e.id
	}
	e.ctx, e.name = ctx, name
	e.known = len(directives.Lookup(name)) > 0
	e.row = nil
	if ctx != 0 && e.known {
		e.row = directives.InContext(name, ctx)
	}
	id, ok := rc.ids[name]
	if !ok {
		id = int32(len(rc.names))
		rc.ids[name] = id
		rc.names = append(rc.names, name)
	}
	e.id = id
	return e.row, e.known, e.id
}

// NewIndex flattens c.
func NewIndex(c *parser.Config) *Index {
	n := 0
	for _, f := range c.Files {
		n += f.DirectiveCount
	}
	root, _ := ContextOf(c.Context)
	b := indexer{c: c, ix: &Index{Entries: make([]Entry, 0, n)}, nameIDs: make([]int32, 0, n)}
	b.rc.ids = map[string]int32{}
	b.walk(c.Main.Directives, root, -1, 0)
	b.ix.nameIDs, b.ix.names = b.nameIDs, b.rc.names
	return b.ix
}

// indexer builds an Index in one direct recursion over the tree (a
// callback per directive and a stack to maintain cost more than the
// entries themselves).
type indexer struct {
	c       *parser.Config
	ix      *Index
	rc      rowCache
	nameIDs []int32
}

// walk adds dirs, which sit in ctx below the entry parent at depth.
func (b *indexer) walk(dirs []*parser.Directive, ctx directives.Context, parent, depth int32) {
	for _, d := range dirs {
		row, known, id := b.rc.lookup(ctx, d.Name.Value)
		b.ix.Entries = append(b.ix.Entries, Entry{Directive: d, Context: ctx, Parent: parent, Depth: depth, Row: row, Known: known})
		b.nameIDs = append(b.nameIDs, id)
		if d.Name.Value == "include" {
			// Config.Walk's order: the include, then its files' directives
			// where it stands.
			for _, f := range b.c.Included(d) {
				b.walk(f.Directives, ctx, parent, depth)
			}
		}
		if d.Block != nil {
			var inner directives.Context
			if ctx != 0 {
				inner = b.rc.child(ctx, d.Name.Value)
			}
			b.walk(d.Block.Directives, inner, int32(len(b.ix.Entries)-1), depth+1)
		}
	}
}

// Named returns the indexes of the entries with one of names, in reading
// order.
func (ix *Index) Named(names ...string) []int32 {
	ix.byNameOnce.Do(func() {
		// Counted first, so every list is cut from one array: a hundred
		// thousand appends to growing lists would cost more than the index.
		counts := make([]int32, len(ix.names))
		for _, id := range ix.nameIDs {
			counts[id]++
		}
		all := make([]int32, len(ix.nameIDs))
		lists := make([][]int32, len(ix.names))
		off := int32(0)
		for id, n := range counts {
			lists[id] = all[off : off : off+n]
			off += n
		}
		for i, id := range ix.nameIDs {
			lists[id] = append(lists[id], int32(i))
		}
		ix.byName = make(map[string][]int32, len(ix.names))
		for id, name := range ix.names {
			ix.byName[name] = lists[id]
		}
	})
	if len(names) == 1 {
		CountOps(len(ix.byName[names[0]]))
		return ix.byName[names[0]]
	}
	var out []int32
	for _, n := range names {
		out = append(out, ix.byName[n]...)
	}
	slices.Sort(out)
	CountOps(len(out))
	return out
}

// Names returns the distinct directive names of the configuration, in
// order of first appearance, so that a rule can pick the names it cares
// about (those no table knows, say) and visit them with Named.
func (ix *Index) Names() []string { return ix.names }

// Stack returns the block directives enclosing entry i, outermost first,
// appended to buf[:0].
func (ix *Index) Stack(i int32, buf []*parser.Directive) []*parser.Directive {
	buf = buf[:0]
	for p := ix.Entries[i].Parent; p >= 0; p = ix.Entries[p].Parent {
		buf = append(buf, ix.Entries[p].Directive)
	}
	CountOps(len(buf))
	slices.Reverse(buf)
	return buf
}
