// Package lint is the whole lint of one configuration, shared by the
// command line and the language server, and the one public way to run
// rules: every rule of a registry, the parser's and loader's findings, the
// settings' severities, the "# nginx-lint ignore=" comments (whose own
// findings obey the same disable and severity settings as rule findings),
// the follow-on findings of a directive nginx refuses, one sort and the
// dedupe (Run); and the session that finds what to lint and how
// (Workspace), whose Lint also applies a baseline and whose Estimate is
// the run with the cost rules.
package lint

import (
	"cmp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/internal/door"
	"github.com/nginx-lint/nginx-lint/analyzer/suppress"
	"github.com/nginx-lint/nginx-lint/parser"
)

// Run lints c with the rules of reg that opts enable and returns the
// findings that survive the suppression comments, ordered by file,
// position and rule, and the run's shared results (the typed model, the
// index, the cost model the cost rules computed). A file included in
// several places gets a finding per place; each is returned once.
//
// It is the one way to run rules: the command line, the language server,
// nginx-lint cost (Workspace.Estimate, this run with every rule but the
// cost rules disabled) and the tests all come through it, so none can
// forget a step. In order: the rules (analyzer.RunRules) beside the
// parser's and loader's findings; the settings' severities; the
// suppression comments (which know every rule of reg, and call an ignore
// unused only for a rule that ran); the follow-on findings of a directive
// a rule marked Refuses reported; one sort; the dedupe.
func Run(c *parser.Config, reg *analyzer.Registry, opts analyzer.Options) ([]*parser.Diagnostic, *analyzer.Results) {
	ran, rs := analyzer.RunRules(door.Key{}, c, reg, opts)
	// The parser's and loader's findings obey the same switches as rules.
	parsed := c.AllDiagnostics()
	ds := make([]*parser.Diagnostic, 0, len(parsed)+len(ran))
	for _, d := range parsed {
		if opts.Disabled[d.Name] {
			continue
		}
		if sev, ok := opts.Severity[d.Name]; ok && sev != d.Severity {
			// A copy: the parsed file, and its findings, may be cached
			// and shared with later runs under other settings.
			dc := *d
			dc.Severity = sev
			d = &dc
		}
		ds = append(ds, d)
	}
	if len(opts.Severity) > 0 {
		// After the run: a rule may set a finding's severity after
		// reporting it, and the settings win over that.
		for _, d := range ran {
			if sev, ok := opts.Severity[d.Name]; ok {
				d.Severity = sev
			}
		}
	}
	ds = append(ds, ran...)
	s := &suppress.Suppressor{
		Known: func(k string) bool { return reg.Lookup(k) != nil },
		Ran: func(k string) bool {
			r := reg.Lookup(k)
			return r != nil && !opts.Disabled[r.Name]
		},
		RequireReason: suppress.RequireReason.From(opts.RuleOptions[suppress.IgnoreWithoutReason.Name]),
	}
	kept, extra := s.Apply(c, ds)
	kept = dropFollowOn(reg, kept)
	for _, d := range extra {
		if opts.Disabled[d.Name] {
			continue
		}
		if sev, ok := opts.Severity[d.Name]; ok {
			d.Severity = sev
		}
		kept = append(kept, d)
	}
	for i, d := range kept {
		kept[i] = boundQuotes(d)
	}
	slices.SortStableFunc(kept, comparePlace)
	return dedupe(kept), rs
}

// Quoted words longer than maxQuoted bytes are cut to their first
// keptQuoted bytes and "..." in messages and details (boundQuotes).
const (
	maxQuoted  = 160
	keptQuoted = 120
)

// boundQuotes returns d, or a copy whose message and detail quote no word
// longer than maxQuoted bytes: a variable name or path of 100,000 bytes
// made a finding as long (nginx cuts its own error line at 1 KiB,
// NGX_MAX_CONF_ERRSTR). A copy, as a parsed file's findings may be
// cached and shared.
func boundQuotes(d *parser.Diagnostic) *parser.Diagnostic {
	msg, detail := cutQuotes(d.Message), cutQuotes(d.Detail)
	if msg == d.Message && detail == d.Detail {
		return d
	}
	dc := *d
	dc.Message, dc.Detail = msg, detail
	return &dc
}

// cutQuotes shortens the double-quoted parts of s longer than maxQuoted.
func cutQuotes(s string) string {
	if len(s) <= maxQuoted {
		return s
	}
	var b strings.Builder
	last := 0
	for i := 0; i < len(s); i++ {
		if s[i] != '"' {
			continue
		}
		j := closingQuote(s, i)
		if j < 0 {
			j = len(s)
		}
		if j-i-1 > maxQuoted {
			cut := i + 1 + keptQuoted
			for cut > i+1 && !utf8.RuneStart(s[cut]) {
				cut--
			}
			if s[cut-1] == '\\' {
				cut-- // never split an escape
			}
			b.WriteString(s[last:cut])
			b.WriteString("...")
			last = j
		}
		i = j
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
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
// rule and message. The findings come ordered by file, start and rule
// (Run's one sort), so repeats stand next to each other, among
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

// comparePlace orders findings as Run does: by file, start and rule.
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
