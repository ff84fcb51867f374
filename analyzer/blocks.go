package analyzer

import (
	"slices"

	"github.com/nginx-lint/nginx-lint/parser"
)

// Body returns the directives of block b as nginx reads them: included
// files are expanded in place (the include directive itself is dropped).
// They count as operations of the pass (CountOps).
func (p *Pass) Body(b *parser.Directive) []*parser.Directive {
	dirs := expandIncludes(p.Config, b.Children(), 0)
	p.CountOps(len(dirs))
	return dirs
}

func hasInclude(dirs []*parser.Directive) bool {
	for _, d := range dirs {
		if d.Is("include") {
			return true
		}
	}
	return false
}

// ExpandIncludes returns dirs as nginx reads them: the directives of the
// files each include names, in place of the include (16 levels deep at
// most). The result is dirs itself when it includes nothing.
func ExpandIncludes(c *parser.Config, dirs []*parser.Directive) []*parser.Directive {
	return expandIncludes(c, dirs, 0)
}

func expandIncludes(c *parser.Config, dirs []*parser.Directive, depth int) []*parser.Directive {
	// Most blocks include nothing: hand back the block's own list (callers
	// only read it) instead of a copy.
	if !hasInclude(dirs) {
		return dirs
	}
	var out []*parser.Directive
	for _, d := range dirs {
		if d.Is("include") && depth < 16 {
			for _, f := range c.Included(d) {
				out = append(out, expandIncludes(c, f.Directives, depth+1)...)
			}
			continue
		}
		out = append(out, d)
	}
	return out
}

// PerBlock remembers a summary of each block's body (includes expanded),
// computed the first time a rule asks. Rules that look at the enclosing
// blocks of every directive of some kind (is this return guarded, is this
// header hidden) then read each block once, not once per directive: a
// return in each of 40,000 servers must not rescan the http block 40,000
// times. The rules walk in reading order, which leaves a block for good
// once past it, so only the summaries of the blocks around the current
// directive are kept, by depth (a map of every block's was the largest
// allocation of some rules on a big configuration).
type PerBlock[T any] struct {
	p       *Pass
	summary func(body []*parser.Directive) T
	// main is the main context's summary, once mainSet.
	main    T
	mainSet bool
	// path holds the summary of the block at each depth of the stack
	// last asked about.
	path []blockSummary[T]
}

type blockSummary[T any] struct {
	b *parser.Directive
	v T
}

// NewPerBlock returns a PerBlock of the summaries summary makes of each
// block's body (Pass.Body).
func NewPerBlock[T any](p *Pass, summary func(body []*parser.Directive) T) *PerBlock[T] {
	return &PerBlock[T]{p: p, summary: summary}
}

// Of returns the summary of block b, one of the blocks of stack (the
// enclosing blocks of the directive being looked at), or of the main
// context when b is nil.
func (pb *PerBlock[T]) Of(stack []*parser.Directive, b *parser.Directive) T {
	if b == nil {
		if !pb.mainSet {
			dirs := expandIncludes(pb.p.Config, pb.p.Config.Main.Directives, 0)
			pb.p.CountOps(len(dirs))
			pb.main, pb.mainSet = pb.summary(dirs), true
		}
		return pb.main
	}
	i := slices.Index(stack, b)
	if i < 0 {
		return pb.summary(pb.p.Body(b)) // not on the stack: not kept
	}
	for len(pb.path) <= i {
		pb.path = append(pb.path, blockSummary[T]{})
	}
	if e := &pb.path[i]; e.b == b {
		return e.v
	}
	v := pb.summary(pb.p.Body(b))
	pb.path[i] = blockSummary[T]{b, v}
	return v
}
