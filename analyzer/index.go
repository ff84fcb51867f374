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
// configuration repeats a few names many thousand times.
type rowCache struct {
	slots [256]struct {
		ctx   directives.Context
		name  string
		row   *directives.Directive
		known bool
	}
	children [64]struct {
		ctx, inner directives.Context
		name       string
	}
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

func (rc *rowCache) lookup(ctx directives.Context, name string) (*directives.Directive, bool) {
	h := uint(ctx)*31 + uint(len(name))*17
	if len(name) > 0 {
		h += uint(name[0])*7 + uint(name[len(name)-1])*13 + uint(name[len(name)/2])
	}
	e := &rc.slots[h&255]
	if e.name == name && e.ctx == ctx && name != "" {
		return e.row, e.known
	}
	e.ctx, e.name = ctx, name
	e.known = len(directives.Lookup(name)) > 0
	e.row = nil
	if ctx != 0 && e.known {
		e.row = directives.InContext(name, ctx)
	}
	return e.row, e.known
}

// NewIndex flattens c.
func NewIndex(c *parser.Config) *Index {
	n := 0
	for _, f := range c.Files {
		n += f.DirectiveCount
	}
	ix := &Index{Entries: make([]Entry, 0, n)}
	root, _ := ContextOf(c.Context)
	ctxs := []directives.Context{root}
	parents := []int32{-1}
	var rc rowCache
	c.Walk(func(d *parser.Directive, stack []*parser.Directive) bool {
		depth := len(stack)
		ctxs, parents = ctxs[:depth+1], parents[:depth+1]
		row, known := rc.lookup(ctxs[depth], d.Name.Value)
		ix.Entries = append(ix.Entries, Entry{Directive: d, Context: ctxs[depth], Parent: parents[depth], Depth: int32(depth), Row: row, Known: known})
		if d.Block != nil {
			var inner directives.Context
			if ctx := ctxs[depth]; ctx != 0 {
				inner = rc.child(ctx, d.Name.Value)
			}
			ctxs = append(ctxs, inner)
			parents = append(parents, int32(len(ix.Entries)-1))
		}
		return true
	})
	return ix
}

// Named returns the indexes of the entries with one of names, in reading
// order.
func (ix *Index) Named(names ...string) []int32 {
	ix.byNameOnce.Do(func() {
		// Two passes, so every list is cut from one array: a hundred
		// thousand appends to growing lists would cost more than the index.
		counts := map[string]int32{}
		for i := range ix.Entries {
			counts[ix.Entries[i].Directive.Name.Value]++
		}
		all := make([]int32, len(ix.Entries))
		ix.byName = make(map[string][]int32, len(counts))
		off := int32(0)
		for name, n := range counts {
			ix.byName[name] = all[off : off : off+n]
			off += n
		}
		for i := range ix.Entries {
			n := ix.Entries[i].Directive.Name.Value
			ix.byName[n] = append(ix.byName[n], int32(i))
		}
	})
	if len(names) == 1 {
		return ix.byName[names[0]]
	}
	var out []int32
	for _, n := range names {
		out = append(out, ix.byName[n]...)
	}
	slices.Sort(out)
	return out
}

// Stack returns the block directives enclosing entry i, outermost first,
// appended to buf[:0].
func (ix *Index) Stack(i int32, buf []*parser.Directive) []*parser.Directive {
	buf = buf[:0]
	for p := ix.Entries[i].Parent; p >= 0; p = ix.Entries[p].Parent {
		buf = append(buf, ix.Entries[p].Directive)
	}
	slices.Reverse(buf)
	return buf
}
