package rules

import (
	"regexp/syntax"
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/directives"
	"github.com/nginx-lint/nginx-lint/analyzer/regex"
	"github.com/nginx-lint/nginx-lint/parser"
	"github.com/nginx-lint/nginx-lint/parser/grammar"
)

// UnreachableLocation reports regex locations that can never be chosen: an
// earlier regex of the block matches every URI they match, or a "^~"
// prefix takes every URI they match before regexes are tried.
var UnreachableLocation = &analyzer.Rule{
	Code: "NL2052", Name: "unreachable-location", Title: "regex location that no request can reach", Severity: parser.Warning,
	Run: runUnreachableLocation,
	Doc: analyzer.Doc{
		Text: "nginx tries regex locations in the order they are written and takes the first " +
			"that matches. A regex that matches only URIs an earlier one already matches is dead: " +
			"`location ~ /api` before `location ~ /api/v1` sends `/api/v1/...` to the first. So is a " +
			"regex whose URIs all start with the path of a `^~` location, when no longer prefix " +
			"location could be chosen instead: `^~` ends the search before any regex is tried. " +
			"Put the more specific regex first, or anchor it differently. Only regexes that are a " +
			"literal text, optionally anchored with `^` or `$`, are compared.",
		Bad:  "location ~ /api {\n    proxy_pass http://127.0.0.1:8080;\n}\nlocation ~ /api/v1 {\n    proxy_pass http://127.0.0.1:8081;\n}\n",
		Good: "location ~ /api/v1 {\n    proxy_pass http://127.0.0.1:8081;\n}\nlocation ~ /api {\n    proxy_pass http://127.0.0.1:8080;\n}\n",
		URL:  "https://nginx.org/en/docs/http/ngx_http_core_module.html#location",
	},
}

// literalRegex is a regex that is a literal text with optional anchors.
type literalRegex struct {
	text         string
	start, end   bool // anchored with ^ / $
	caseless, ok bool
	loc          *parser.Location
}

// readLiteralRegex reads a location regex that is "^?literal$?", each
// distinct one once (see regex.VerdictMemo).
func readLiteralRegex(l *parser.Location, memo *regex.VerdictMemo[literalRegex]) literalRegex {
	caseless := l.Spec().Modifier == grammar.ModRegexCaseless
	out := memo.Get(l.Spec().Path, caseless, func(re *syntax.Regexp) literalRegex { return literalOf(re, caseless) })
	out.loc = l
	return out
}

// literalOf reads a regex that is "^?literal$?"; ok is unset for
// another one.
func literalOf(re *syntax.Regexp, caseless bool) literalRegex {
	if re == nil {
		return literalRegex{}
	}
	re = re.Simplify()
	parts := []*syntax.Regexp{re}
	if re.Op == syntax.OpConcat {
		parts = re.Sub
	}
	out := literalRegex{caseless: caseless}
	for i, p := range parts {
		switch {
		case i == 0 && (p.Op == syntax.OpBeginText || p.Op == syntax.OpBeginLine):
			out.start = true
		case i == len(parts)-1 && (p.Op == syntax.OpEndText || p.Op == syntax.OpEndLine):
			out.end = true
		case p.Op == syntax.OpLiteral && out.text == "" && !out.end:
			out.text = string(p.Rune)
		default:
			return literalRegex{}
		}
	}
	out.ok = out.text != "" || out.start || out.end
	return out
}

// covers reports whether every URI b matches is matched by a.
func (a literalRegex) covers(b literalRegex) bool {
	if a.caseless != b.caseless && !a.caseless {
		return false // b matches case variants a does not
	}
	at, bt := a.text, b.text
	if a.caseless {
		at, bt = strings.ToLower(at), strings.ToLower(bt)
	}
	switch {
	case a.start && a.end:
		return b.start && b.end && at == bt
	case a.start:
		return b.start && strings.HasPrefix(bt, at)
	case a.end:
		return b.end && strings.HasSuffix(bt, at)
	}
	return strings.Contains(bt, at)
}

func runUnreachableLocation(p *analyzer.Pass) {
	// Sibling locations by their block (nil: a snippet's top level), in
	// reading order, from the index. The locations come depth first, so
	// a block's group is complete when a location of a shallower depth,
	// or of another block at the same depth, comes: each group is checked
	// then and dropped, and only the groups along the current path are
	// held (a group per block for the whole configuration would be a
	// hundred megabytes on a big one). A level's list is reused by the
	// next group at its depth, and the lists unreachableIn needs are
	// scratch space kept for the run: a location of each server is
	// otherwise an allocation or two.
	type group struct {
		parent *parser.Directive
		locs   []parser.Location
	}
	var levels []group
	var scratch unreachableScratch
	flush := func(from int) {
		for i := len(levels) - 1; i >= from; i-- {
			if len(levels[i].locs) > 0 {
				unreachableIn(p, levels[i].locs, &scratch)
			}
			levels[i].parent, levels[i].locs = nil, levels[i].locs[:0]
		}
		levels = levels[:min(from, len(levels))]
	}
	p.WalkNamed(func(d *parser.Directive, _ directives.Context, stack []*parser.Directive) {
		var parent *parser.Directive
		depth := len(stack)
		if depth > 0 {
			parent = stack[depth-1]
		}
		flush(depth + 1)
		if depth < len(levels) && levels[depth].parent != parent {
			flush(depth)
		}
		for len(levels) <= depth {
			// Past the length, the groups flushed earlier keep their
			// emptied lists.
			if len(levels) < cap(levels) {
				levels = levels[:len(levels)+1]
			} else {
				levels = append(levels, group{})
			}
		}
		levels[depth].parent = parent
		levels[depth].locs = append(levels[depth].locs, parser.Location{Directive: d})
	}, "location")
	flush(0)
}

// unreachableScratch is what unreachableIn keeps between groups.
type unreachableScratch struct {
	literals       regex.VerdictMemo[literalRegex]
	regexes        []literalRegex
	noRegex, plain []*parser.Location
}

func unreachableIn(p *analyzer.Pass, locs []parser.Location, sc *unreachableScratch) {
	regexes, noRegex, plain := sc.regexes[:0], sc.noRegex[:0], sc.plain[:0]
	defer func() { sc.regexes, sc.noRegex, sc.plain = regexes[:0], noRegex[:0], plain[:0] }()
	for i := range locs {
		l := &locs[i]
		if l.Err() != nil || l.Spec().Named {
			continue
		}
		switch l.Spec().Modifier {
		case grammar.ModPrefixNoRegex:
			noRegex = append(noRegex, l)
		case grammar.ModNone:
			plain = append(plain, l)
		}
	}
	for i := range locs {
		l := &locs[i]
		if l.Err() != nil || !l.Spec().IsRegex {
			continue
		}
		r := readLiteralRegex(l, &sc.literals)
		if !r.ok {
			// Not comparable, but it still may catch URIs before later
			// ones: only literal regexes shadow here.
			continue
		}
		if by := shadowingRegex(regexes, r); by != nil {
			diag := p.ReportDirective(l.Directive, "location %s %q is never chosen: the earlier location %s %q matches every URI it matches",
				l.Spec().Modifier, l.Spec().Path, by.Spec().Modifier, by.Spec().Path)
			diag.Detail = "nginx takes the first regex location that matches; put the more specific one first"
			diag.Related = []parser.Related{{File: by.Directive.File, Range: by.Directive.Name.Range, Message: "matches first"}}
		} else if by := shadowingNoRegex(noRegex, plain, r); by != nil {
			diag := p.ReportDirective(l.Directive, "location %s %q is never chosen: every URI it matches starts with %q, and \"^~\" stops the regex search",
				l.Spec().Modifier, l.Spec().Path, by.Spec().Path)
			diag.Detail = "drop the \"^~\" or move the regex into that location"
			diag.Related = []parser.Related{{File: by.Directive.File, Range: by.Directive.Name.Range, Message: "takes these URIs first"}}
		}
		regexes = append(regexes, r)
	}
}

func shadowingRegex(earlier []literalRegex, r literalRegex) *parser.Location {
	for _, e := range earlier {
		if e.covers(r) {
			return e.loc
		}
	}
	return nil
}

// shadowingNoRegex returns the "^~" location that takes every URI the
// start-anchored regex r matches, when no plain prefix location in the
// block could be a longer match for those URIs.
func shadowingNoRegex(noRegex, plain []*parser.Location, r literalRegex) *parser.Location {
	if !r.start || r.caseless {
		return nil
	}
	for _, q := range noRegex {
		if !strings.HasPrefix(r.text, q.Spec().Path) {
			continue
		}
		// A longer plain prefix that these URIs may match would be the
		// longest match instead, and then the regexes are tried. (A
		// longer "^~" one stops the search as well.)
		longer := false
		for _, l := range plain {
			lp := l.Spec().Path
			if len(lp) > len(q.Spec().Path) && strings.HasPrefix(lp, q.Spec().Path) &&
				(strings.HasPrefix(lp, r.text) || strings.HasPrefix(r.text, lp)) {
				longer = true
				break
			}
		}
		if !longer {
			return q
		}
	}
	return nil
}
