package analyzer

import (
	"math/bits"
	"slices"
	"sync/atomic"

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

	names names
	// byName is the entries grouped by name: those of the name numbered
	// id (see names) are byName[start[id]:start[id+1]], in reading order.
	// (Offsets rather than a map of lists: the entries of a map or geo
	// block are named by their keys, a million distinct names in a big
	// one.) A map or geo key no table knows is in no list.
	byName, start []int32
	// ops counts the operations of the run that built the index
	// (Options.Ops); nil outside a counted run.
	ops *atomic.Int64
}

// Entry is one directive as nginx meets it. (Fields are packed into 16
// bytes, the row and the context kept as small numbers rather than a
// pointer and a bit mask, and no depth, which the parent chain gives: a
// big configuration has millions of entries.)
type Entry struct {
	Directive *parser.Directive
	// Parent is the index of the enclosing block directive, -1 at the top.
	Parent int32
	// row is the directives.RowID of Row.
	row int16
	// ctx is the number of Context's bit plus one, 0 for no context:
	// every context a block opens is a single bit of directives.Context
	// (TestChildContextsSingleBit in analyzer/directives).
	ctx uint8
	// Known is whether any row of the directive table has the name (Row
	// is looked up once here, with it, because several rules need them).
	Known bool
}

// Context is where the directive appears; 0 inside blocks whose body the
// directive tables do not describe (map entries, types, Lua).
func (e *Entry) Context() directives.Context {
	return directives.Context(uint64(1) << e.ctx >> 1)
}

// Row returns the directive table's row for the directive in its
// Context, nil when it is unknown there.
func (e *Entry) Row() *directives.Directive { return directives.Row(e.row) }

// contextCode is Entry.ctx for ctx.
func contextCode(ctx directives.Context) uint8 {
	if ctx&(ctx-1) != 0 {
		// The directive tables are static: a test keeps them from
		// getting here.
		panic("analyzer: a block opens a context of several bits: " + ctx.String())
	}
	if ctx == 0 {
		return 0
	}
	return uint8(bits.TrailingZeros32(uint32(ctx)) + 1)
}

// End returns the index just past the entries inside entry i's block
// (and the files included there): they are i+1 to End(i)-1, as the
// entries are in reading order.
func (ix *Index) End(i int32) int32 {
	j := i + 1
	// An entry outside i's block has its parent before i: an ancestor of
	// i or the top.
	for int(j) < len(ix.Entries) && ix.Entries[j].Parent >= i {
		j++
	}
	return j
}

// names numbers the distinct names of a configuration in order of first
// appearance, so that grouping the entries by name costs no string
// hashing per entry: a name the tables know is numbered through its table
// number, which directives.Resolve returns with the row.
type names struct {
	byTable []int32 // table number -> local number + 1, 0 when not seen
	unknown map[string]int32
	list    []string
}

func (n *names) id(name string, tableID int32) int32 {
	if tableID >= 0 {
		if id := n.byTable[tableID]; id > 0 {
			return id - 1
		}
		id := int32(len(n.list))
		n.byTable[tableID] = id + 1
		n.list = append(n.list, name)
		return id
	}
	id, ok := n.unknown[name]
	if !ok {
		id = int32(len(n.list))
		n.unknown[name] = id
		n.list = append(n.list, name)
	}
	return id
}

// lookup returns the number of name, if the configuration has it.
func (n *names) lookup(name string) (int32, bool) {
	if _, _, tableID := directives.Resolve(name, 0); tableID >= 0 {
		id := n.byTable[tableID]
		return id - 1, id > 0
	}
	id, ok := n.unknown[name]
	return id, ok
}

// NewIndex flattens c.
func NewIndex(c *parser.Config) *Index {
	n := 0
	for _, f := range c.Files {
		n += f.DirectiveCount
	}
	root, _ := ContextOf(c.Context)
	b := indexer{c: c, ix: &Index{Entries: make([]Entry, 0, n)}}
	b.ix.names = names{byTable: make([]int32, directives.NumNames()), unknown: map[string]int32{}}
	b.walk(c.Main.Directives, root, -1)
	b.ix.group(b.counts)
	return b.ix
}

// indexer builds an Index in one direct recursion over the tree (a
// callback per directive and a stack to maintain cost more than the
// entries themselves).
type indexer struct {
	c  *parser.Config
	ix *Index
	// counts are the number of entries of each name.
	counts []int32
}

// walk adds dirs, which sit in ctx below the entry parent at depth.
func (b *indexer) walk(dirs []*parser.Directive, ctx directives.Context, parent int32) {
	code := contextCode(ctx)
	// The lines of a map or geo block are named by their keys, a million
	// distinct names in a big one: a key no table knows gets no number
	// (and is not in Names), as no rule asks for one by name; the
	// variable facts read map bodies through their block.
	keys := ctx&keyContexts != 0
	for _, d := range dirs {
		name := d.Name().Value
		row, known, tid := directives.Resolve(name, ctx)
		if tid >= 0 || !keys {
			id := b.ix.names.id(name, tid)
			if int(id) == len(b.counts) {
				b.counts = append(b.counts, 0)
			}
			b.counts[id]++
		}
		b.ix.Entries = append(b.ix.Entries, Entry{Directive: d, Parent: parent, row: directives.RowID(row), ctx: code, Known: known})
		if name == "include" {
			// Config.Walk's order: the include, then its files' directives
			// where it stands.
			for _, f := range b.c.Included(d) {
				b.walk(f.Directives, ctx, parent)
			}
		}
		if d.Block != nil {
			var inner directives.Context
			if ctx != 0 {
				inner, _ = directives.ChildContext(name, ctx)
			}
			b.walk(d.Block.Directives, inner, int32(len(b.ix.Entries)-1))
		}
	}
}

// Named returns the indexes of the entries with one of names, in reading
// order. The lines of map and geo blocks whose key no directive table
// knows are left out (a big map has millions of distinct keys): reach
// them through their block's entries.
func (ix *Index) Named(names ...string) []int32 {
	if len(names) == 1 {
		l := ix.named(names[0])
		ix.countOps(len(l))
		return l
	}
	lists, n := ix.namedLists(names)
	if n == 0 {
		return nil
	}
	if len(lists) > maxMerge {
		return sortLists(lists, n)
	}
	out := make([]int32, 0, n)
	mergeLists(lists, func(i int32) { out = append(out, i) })
	return out
}

// sortLists returns the n entries of lists in reading order.
func sortLists(lists [][]int32, n int) []int32 {
	out := make([]int32, 0, n)
	for _, l := range lists {
		out = append(out, l...)
	}
	slices.Sort(out)
	return out
}

// maxMerge is the most lists of entries merged rather than sorted: a
// merge compares the heads of every list for each entry.
const maxMerge = 8

// group groups the entries by name, counts[id] of the name numbered id:
// a counting sort, every list cut from one array, as a hundred thousand
// appends to growing lists would cost more than the index. An entry's
// name number is found again from its row, not kept from the walk: 4
// bytes an entry less while the index is built.
func (ix *Index) group(counts []int32) {
	start := make([]int32, len(counts)+1)
	for id, c := range counts {
		start[id+1] = start[id] + c
	}
	next := slices.Clone(start[:len(counts)])
	all := make([]int32, start[len(counts)])
	for i := range ix.Entries {
		if id := ix.nameID(&ix.Entries[i]); id >= 0 {
			all[next[id]] = int32(i)
			next[id]++
		}
	}
	ix.byName, ix.start = all, start
}

// keyContexts are the contexts whose lines are named by their keys.
const keyContexts = directives.Map | directives.StreamMap | directives.Geo | directives.StreamGeo

// nameID returns the number of e's name, -1 for a map or geo key no
// table knows (the walk numbered every other name).
func (ix *Index) nameID(e *Entry) int32 {
	if e.row >= 0 {
		return ix.names.byTable[directives.NameIDOf(e.row)] - 1
	}
	name := e.Directive.Name().Value
	if e.Known {
		_, _, tid := directives.Resolve(name, 0)
		return ix.names.byTable[tid] - 1
	}
	if e.Context()&keyContexts != 0 {
		return -1
	}
	return ix.names.unknown[name]
}

// eachNamed calls fn with the entries Named(names...) returns, in the
// same order, without building their list (a walk over three names that
// each stand on every server would otherwise allocate a list of them all
// for each rule that asks).
func (ix *Index) eachNamed(names []string, fn func(i int32)) {
	if len(names) == 1 {
		for _, i := range ix.Named(names[0]) {
			fn(i)
		}
		return
	}
	lists, n := ix.namedLists(names)
	if len(lists) > maxMerge {
		for _, i := range sortLists(lists, n) {
			fn(i)
		}
		return
	}
	mergeLists(lists, fn)
}

// namedLists returns the non-empty lists of entries of names and how
// many entries there are in all, counted as operations.
func (ix *Index) namedLists(names []string) ([][]int32, int) {
	lists := make([][]int32, 0, len(names))
	n := 0
	for _, name := range names {
		if l := ix.named(name); len(l) > 0 {
			lists = append(lists, l)
			n += len(l)
		}
	}
	ix.countOps(n)
	return lists, n
}

// mergeLists calls fn with the entries of lists, non-empty and each in
// reading order, in reading order.
func mergeLists(lists [][]int32, fn func(i int32)) {
	for len(lists) > 1 {
		best := 0
		for k := 1; k < len(lists); k++ {
			if lists[k][0] < lists[best][0] {
				best = k
			}
		}
		fn(lists[best][0])
		if lists[best] = lists[best][1:]; len(lists[best]) == 0 {
			lists = slices.Delete(lists, best, best+1)
		}
	}
	for _, l := range lists {
		for _, i := range l {
			fn(i)
		}
	}
}

// Names returns the distinct directive names of the configuration, in
// order of first appearance, so that a rule can pick the names it cares
// about (those no table knows, say) and visit them with Named. Like
// Named, it leaves out the map and geo keys no table knows.
func (ix *Index) Names() []string { return ix.names.list }

// named returns the entries named name.
func (ix *Index) named(name string) []int32 {
	id, ok := ix.names.lookup(name)
	if !ok {
		return nil
	}
	lo, hi := ix.start[id], ix.start[id+1]
	return ix.byName[lo:hi:hi]
}

// Stack returns the block directives enclosing entry i, outermost first,
// appended to buf[:0].
func (ix *Index) Stack(i int32, buf []*parser.Directive) []*parser.Directive {
	buf = buf[:0]
	for p := ix.Entries[i].Parent; p >= 0; p = ix.Entries[p].Parent {
		buf = append(buf, ix.Entries[p].Directive)
	}
	ix.countOps(len(buf))
	slices.Reverse(buf)
	return buf
}
