// Package lint is the whole lint of one configuration, shared by the
// command line and the language server: every rule of a registry, then the
// "# nginx-lint ignore=" comments, whose own findings obey the same disable
// and severity settings as rule findings.
package lint

import (
	"cmp"
	"slices"
	"sort"
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/suppress"
	"github.com/nginx-lint/nginx-lint/parser"
)

// Run lints c with reg and opts and returns the findings that survive the
// suppression comments, ordered by file and position. A file included in
// several places gets a finding per place; each is returned once.
func Run(c *parser.Config, reg *analyzer.Registry, opts analyzer.Options) []*parser.Diagnostic {
	return suppressAndSort(c, reg, opts, analyzer.Run(c, reg, opts))
}

// suppressAndSort is the part of Run after the rules: dedupe, the
// suppression comments, the follow-on findings of a directive nginx
// refuses (dropFollowOn), and the order.
func suppressAndSort(c *parser.Config, reg *analyzer.Registry, opts analyzer.Options, ds []*parser.Diagnostic) []*parser.Diagnostic {
	return suppressRan(c, reg, reg, opts, ds)
}

// suppressRan is suppressAndSort for a run of only some rules (ran) of a
// registry (known): "nginx-lint cost" runs the cost rules, and a comment
// that ignores another rule is neither unknown nor unused there.
func suppressRan(c *parser.Config, known, ran *analyzer.Registry, opts analyzer.Options, ds []*parser.Diagnostic) []*parser.Diagnostic {
	ds = dedupe(ds)
	s := &suppress.Suppressor{
		Known: func(k string) bool { return known.Lookup(k) != nil },
		Ran: func(k string) bool {
			r := ran.Lookup(k)
			return r != nil && !opts.Disabled[r.Name]
		},
	}
	kept, extra := s.Apply(c, ds)
	kept = dropFollowOn(kept)
	for _, d := range extra {
		if opts.Disabled[d.Name] {
			continue
		}
		if sev, ok := opts.Severity[d.Name]; ok {
			d.Severity = sev
		}
		kept = append(kept, d)
	}
	sort.SliceStable(kept, func(i, j int) bool {
		a, b := kept[i], kept[j]
		if a.FilePath() != b.FilePath() {
			return a.FilePath() < b.FilePath()
		}
		return a.Range.Start < b.Range.Start
	})
	return kept
}

// findingKey tells findings apart: two with the same file, range, rule
// and message are one. (A struct rather than the fields printed into a
// string: a run with a finding on every server would build a string per
// finding.)
type findingKey struct {
	file      string
	r         parser.Range
	code, msg string
}

func keyOf(d *parser.Diagnostic) findingKey {
	return findingKey{d.FilePath(), d.Range, d.Code, d.Message}
}

// dedupe drops the findings that repeat an earlier one: same file, range,
// rule and message. The rules' findings come ordered by file, start and
// rule (analyzer.Run's order), so repeats stand next to each other, among
// the findings of one rule at one place: they are compared there, in
// place, rather than through a map of every finding (a tenth of a
// configuration's size when it has a finding every hundred bytes). A
// place with more than a few findings (a rule that says something about
// each port of a range) gets a map of its own, so no place costs more
// than its findings. A list in another order goes through the map.
func dedupe(ds []*parser.Diagnostic) []*parser.Diagnostic {
	if !slices.IsSortedFunc(ds, comparePlace) {
		return dedupeAny(ds)
	}
	out := ds[:0]
	start := 0 // in out, the first finding at d's place
	var many map[endMessage]bool
	for _, d := range ds {
		if len(out) > 0 && comparePlace(out[len(out)-1], d) != 0 {
			start, many = len(out), nil
		}
		k := endMessage{d.Range.End, d.Message}
		if many != nil {
			if !many[k] {
				many[k] = true
				out = append(out, d)
			}
			continue
		}
		if slices.ContainsFunc(out[start:], func(x *parser.Diagnostic) bool { return x.Range.End == k.end && x.Message == k.msg }) {
			continue
		}
		out = append(out, d)
		if len(out)-start > fewAtOnePlace {
			many = make(map[endMessage]bool, 2*fewAtOnePlace)
			for _, x := range out[start:] {
				many[endMessage{x.Range.End, x.Message}] = true
			}
		}
	}
	return out
}

// fewAtOnePlace is the most findings of one place dedupe compares one by
// one.
const fewAtOnePlace = 8

// endMessage tells apart the findings of one place (file, start, rule).
type endMessage struct {
	end int32
	msg string
}

// comparePlace orders findings as analyzer.Run does: by file, start and
// rule.
func comparePlace(a, b *parser.Diagnostic) int {
	if c := strings.Compare(a.FilePath(), b.FilePath()); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Range.Start, b.Range.Start); c != 0 {
		return c
	}
	return strings.Compare(a.Code, b.Code)
}

// dedupeAny is dedupe for findings in any order.
func dedupeAny(ds []*parser.Diagnostic) []*parser.Diagnostic {
	seen := make(map[findingKey]bool, len(ds))
	out := ds[:0]
	for _, d := range ds {
		k := keyOf(d)
		if !seen[k] {
			seen[k] = true
			out = append(out, d)
		}
	}
	return out
}
