package lint

import (
	"sort"
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/parser"
)

// refusing reports whether the rule named by code is marked Refuses:
// its finding means nginx refuses the directive it points at, and the
// other rules' findings on that directive's head (its name and
// arguments, not its block) are dropped. Its own findings, and the
// parser's and loader's (syntax, NL1xxx), are kept: nginx reports each of
// those in its turn, once the one before is fixed.
func refusing(reg *analyzer.Registry, code string) bool {
	r := reg.Lookup(code)
	return r != nil && r.Refuses
}

// keptBeside reports whether a finding of the rule named by code is kept
// on a directive nginx refuses: a refusal of its own, or the parser's.
func keptBeside(reg *analyzer.Registry, code string) bool {
	return strings.HasPrefix(code, "NL1") || refusing(reg, code)
}

// dropFollowOn drops the follow-on findings: those not keptBeside whose
// start lies in the head of a directive that a rule of reg marked Refuses
// reported on. It runs after the suppression comments, so an ignored
// refusal drops nothing and a comment that ignores a follow-on still
// counts as used. The common run has no refusal and costs one map
// look-up per finding.
func dropFollowOn(reg *analyzer.Registry, ds []*parser.Diagnostic) []*parser.Diagnostic {
	var heads map[*parser.File][]parser.Range
	for _, d := range ds {
		if d.File == nil || !refusing(reg, d.Code) {
			continue
		}
		h, ok := headAt(d.File, d.Range.Start)
		if !ok {
			continue
		}
		if heads == nil {
			heads = map[*parser.File][]parser.Range{}
		}
		heads[d.File] = append(heads[d.File], h)
	}
	if heads == nil {
		return ds
	}
	for f, hs := range heads {
		sort.Slice(hs, func(i, j int) bool { return hs[i].Start < hs[j].Start })
		heads[f] = hs
	}
	out := ds[:0]
	for _, d := range ds {
		if d.File != nil && !keptBeside(reg, d.Code) && inHeads(heads[d.File], d.Range.Start) {
			continue
		}
		out = append(out, d)
	}
	return out
}

// inHeads reports whether off lies in one of hs, sorted by start. Heads
// do not overlap (a directive's head ends before its block's first
// directive starts).
func inHeads(hs []parser.Range, off int32) bool {
	i := sort.Search(len(hs), func(i int) bool { return hs[i].Start > off }) - 1
	return i >= 0 && off < hs[i].End
}

// headAt returns the head of the directive of f whose head holds off:
// from its name to its ";" or "{" (or its last word when neither came).
// It descends from the top level by binary search, each level's
// directives being in source order.
func headAt(f *parser.File, off int32) (parser.Range, bool) {
	ds := f.Directives
	for {
		i := sort.Search(len(ds), func(i int) bool { return ds[i].Name().Range.Start > off }) - 1
		if i < 0 {
			return parser.Range{}, false
		}
		d := ds[i]
		h := d.HeadRange()
		if t := max(d.Semicolon(), d.LBrace()); t >= 0 {
			h.End = max(h.End, t+1)
		}
		if off < h.End {
			return h, true
		}
		if d.Block == nil {
			return parser.Range{}, false
		}
		ds = d.Block.Directives
	}
}
