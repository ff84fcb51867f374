package parser

import (
	"sort"
	"unsafe"
)

// This file re-parses an edited file in proportion to the edit: only the
// body of the innermost block whose braces hold the edit is read again;
// the rest of the tree is the old one, moved to the new text. An editor
// typing in one server of a configuration of twenty thousand re-reads
// that server, not the file.

// Reparse returns the tree of src, the text of old after an edit, as
// ParseString(old.Path, src, opts) would make it, or nil when it cannot
// tell it apart from a fresh parse cheaply: old or the new text has a
// syntax error, or the edit is not inside the braces of one block (the
// caller then parses src whole). opts must be those old was parsed with.
func Reparse(old *File, src string, opts *Options) *File {
	if opts == nil {
		opts = &Options{}
	}
	if len(old.Diagnostics) > 0 || old.FromDump != "" || len(src) > MaxSourceSize {
		return nil
	}
	// The edit: old.Src[start:oldEnd] became src[start:newEnd].
	start := commonPrefix(old.Src, src)
	if start == len(old.Src) && start == len(src) {
		return nil // the same text: the caller has its tree
	}
	suffix := commonSuffix(old.Src[start:], src[start:])
	oldEnd, newEnd := len(old.Src)-suffix, len(src)-suffix

	// The innermost block whose body holds the edit, and how it is read.
	var ctx BlockContext
	if opts.Kinds != nil {
		ctx = opts.Kinds.Root(opts.Ancestors)
	}
	freeForm := len(opts.Ancestors) > 0 && isFreeForm(opts.Ancestors[len(opts.Ancestors)-1])
	var target *Directive
	var tctx BlockContext
	var tfree bool
	depth := 0
	for dirs := old.Directives; ; {
		i := sort.Search(len(dirs), func(i int) bool { return int(dirs[i].Range().End) > start })
		if i == len(dirs) {
			break
		}
		d := dirs[i]
		lb, rb := int(d.LBrace()), int(d.RBrace())
		if d.Block == nil || d.RawBlock() || lb < 0 || rb < 0 || start <= lb || oldEnd > rb {
			break
		}
		if opts.Kinds != nil && ctx != 0 {
			ctx = opts.Kinds.Child(ctx, d.Name().Value)
		}
		freeForm = freeForm || isFreeForm(d.Name().Value)
		target, tctx, tfree = d, ctx, freeForm
		depth++
		dirs = d.Block.Directives
	}
	if target == nil {
		return nil
	}

	// Read the block's body again, from its "{" to where its "}" now is.
	f := &File{Path: old.Path, Src: src}
	delta := newEnd - oldEnd
	b := &builder{lx: newLexer(f), f: f, kinds: opts.Kinds, base: len(opts.Ancestors)}
	b.lx.pos = int(target.LBrace()) + 1
	body, comments, rb, eof := b.block(depth, tctx, tfree, nil, nil)
	if eof || rb != int(target.RBrace())+delta || len(b.lx.errs) > 0 || len(b.errs) > 0 {
		return nil
	}

	c := &copier{f: f, start: int32(start), oldEnd: int32(oldEnd), delta: int32(delta),
		base: uintptr(unsafe.Pointer(unsafe.StringData(old.Src))), size: uintptr(len(old.Src)),
		target: target, body: body}
	// Every directive but the target's old body's, in one allocation.
	c.dirs = make([]Directive, 0, old.DirectiveCount-count(target.Block.Directives))
	if len(comments) > 0 {
		cell := new([]*Comment)
		*cell = comments
		c.bodyComments = cell
	}
	f.Directives = c.list(old.Directives)
	f.Comments = c.comments(old.Comments, old.Directives, f.Directives)
	f.DirectiveCount = old.DirectiveCount - count(target.Block.Directives) + b.count
	return f
}

// commonPrefix returns the length of the longest common prefix of a and b.
func commonPrefix(a, b string) int {
	n := min(len(a), len(b))
	i := 0
	// A page at a time where they agree (one vectorized compare each),
	// then a byte at a time.
	for i+4096 <= n && a[i:i+4096] == b[i:i+4096] {
		i += 4096
	}
	for i < n && a[i] == b[i] {
		i++
	}
	return i
}

// commonSuffix returns the length of the longest common suffix of a and b.
func commonSuffix(a, b string) int {
	n := min(len(a), len(b))
	i := 0
	for i+4096 <= n && a[len(a)-i-4096:len(a)-i] == b[len(b)-i-4096:len(b)-i] {
		i += 4096
	}
	for i < n && a[len(a)-i-1] == b[len(b)-i-1] {
		i++
	}
	return i
}

// count returns the number of directives of dirs at every depth.
func count(dirs []*Directive) int {
	n := len(dirs)
	for _, d := range dirs {
		if d.Block != nil {
			n += count(d.Block.Directives)
		}
	}
	return n
}

// copier moves the nodes of the old tree to the new text: offsets at or
// past the edit shift by delta, words and comments point into the new
// text, every directive names the new file; the target block gets the
// body read again.
type copier struct {
	f                    *File
	start, oldEnd, delta int32
	// base and size locate the old text in memory.
	base, size   uintptr
	target       *Directive
	body         []*Directive
	bodyComments *[]*Comment

	dirs   []Directive
	words  []Word
	blocks []Block
	ptrs   []*Directive
}

func (c *copier) off(o int32) int32 {
	if o >= c.oldEnd && o >= 0 {
		return o + c.delta
	}
	return o
}

func (c *copier) rng(r Range) Range { return Range{c.off(r.Start), c.off(r.End)} }

// text returns s, a string of the old tree, as the new tree holds it: a
// slice of the old text becomes the same slice of the new one (nothing
// keeps the old text alive); a string of its own (an unescaped word) is
// kept.
func (c *copier) text(s string) string {
	if len(s) == 0 {
		return s
	}
	p := uintptr(unsafe.Pointer(unsafe.StringData(s)))
	if p-c.base >= c.size { // below base, the difference wraps around
		return s
	}
	o := c.off(int32(p - c.base))
	return c.f.Src[o : int(o)+len(s)]
}

func (c *copier) word(w Word) Word { return Word{Value: c.text(w.Value), Range: c.rng(w.Range)} }

// list copies a list of directives.
func (c *copier) list(dirs []*Directive) []*Directive {
	if len(dirs) == 0 {
		return nil
	}
	if cap(c.ptrs)-len(c.ptrs) < len(dirs) {
		c.ptrs = make([]*Directive, 0, max(8192, len(dirs)))
	}
	l := len(c.ptrs)
	c.ptrs = c.ptrs[:l+len(dirs)]
	out := c.ptrs[l : l+len(dirs) : l+len(dirs)]
	for i, d := range dirs {
		out[i] = c.directive(d)
	}
	return out
}

func (c *copier) directive(d *Directive) *Directive {
	if len(c.dirs) == cap(c.dirs) {
		c.dirs = make([]Directive, 0, nextChunk(cap(c.dirs), unsafe.Sizeof(Directive{})))
	}
	c.dirs = c.dirs[:len(c.dirs)+1]
	n := &c.dirs[len(c.dirs)-1]
	n.File, n.term, n.rbrace = c.f, c.off(d.term), d.rbrace
	n.SetName(c.word(d.Name()))
	if d.rbrace >= 0 {
		n.rbrace = c.off(d.rbrace)
	}
	if len(d.Args()) > 0 {
		if cap(c.words)-len(c.words) < len(d.Args()) {
			// Large chunks: a copy makes as many words as the tree holds.
			c.words = make([]Word, 0, max(8192, len(d.Args())))
		}
		l := len(c.words)
		c.words = c.words[:l+len(d.Args())]
		n.SetArgs(c.words[l : l+len(d.Args()) : l+len(d.Args())])
		for i, a := range d.Args() {
			n.Args()[i] = c.word(a)
		}
	}
	switch {
	case d == c.target:
		n.Block = slab(&c.blocks)
		n.Block.Directives = c.body
		n.Block.comments = c.bodyComments
	case d.Block != nil:
		n.Block = slab(&c.blocks)
		n.Block.Directives = c.list(d.Block.Directives)
		if cs := d.Block.Comments(); len(cs) > 0 {
			cell := new([]*Comment)
			*cell = c.comments(cs, d.Block.Directives, n.Block.Directives)
			n.Block.comments = cell
		}
	}
	return n
}

// comments copies the comments of a list of directives (old), attached
// to the copies (now) of the directives they describe, which are in the
// same list.
func (c *copier) comments(cs []*Comment, old, now []*Directive) []*Comment {
	if len(cs) == 0 {
		return nil
	}
	out := make([]*Comment, len(cs))
	cells := make([]Comment, len(cs))
	for i, cm := range cs {
		cells[i] = Comment{Range: c.rng(cm.Range), Text: c.text(cm.Text), Trailing: cm.Trailing}
		if d := cm.Directive; d != nil {
			j := sort.Search(len(old), func(j int) bool { return old[j].Name().Range.Start >= d.Name().Range.Start })
			if j < len(old) && old[j] == d {
				cells[i].Directive = now[j]
			}
		}
		out[i] = &cells[i]
	}
	return out
}
