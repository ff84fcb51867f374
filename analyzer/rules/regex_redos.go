package rules

import (
	"regexp/syntax"
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/directives"
	"github.com/nginx-lint/nginx-lint/parser"
)

// RegexReDoS reports regexes with nested unbounded repetition, which a
// backtracking engine such as PCRE can take exponential time on.
var RegexReDoS = &analyzer.Rule{
	Code: "NL3018", Name: "regex-redos", Title: "regex with nested repetition can backtrack exponentially", Severity: parser.Warning,
	Run: runRegexReDoS,
	Doc: analyzer.Doc{
		Text: "nginx matches regexes with PCRE, which backtracks. A repeated group whose body can " +
			"itself repeat, with nothing fixed between the repetitions (`(a+)+`, `(\\w+\\s?)*`, " +
			"`(.*)*`), splits a non-matching subject in exponentially many ways: one crafted URI or " +
			"header keeps a worker busy until PCRE's match limit stops it, and every other " +
			"connection on that worker waits. Rewrite the group so each repetition must consume a " +
			"fixed separator (`(/[a-z]+)*`) or drop the inner quantifier. Checked: location, if, " +
			"rewrite, map keys and server_name regexes.",
		Bad:  "location ~ ^/(\\w+\\s?)*$ {\n    return 404;\n}\n",
		Good: "location ~ ^/(\\w+/)*$ {\n    return 404;\n}\n",
		URL:  "https://nginx.org/en/docs/http/ngx_http_core_module.html#location",
	},
}

func runRegexReDoS(p *analyzer.Pass) {
	var nested regexMemo[bool]
	check := func(f *parser.File, w parser.Word, expr string, caseless bool) {
		if nested.get(expr, caseless, func(re *syntax.Regexp) bool { return re != nil && nestedRepeat(re) != nil }) {
			diag := p.Reportf(f, w.Range, "regex %q repeats a group that itself repeats: catastrophic backtracking", expr)
			diag.Detail = "a subject that almost matches takes exponential time in PCRE; make each repetition " +
				"consume a fixed separator, or remove the inner quantifier"
		}
	}
	p.WalkNamed(func(d *parser.Directive, _ directives.Context, _ []*parser.Directive) {
		switch d.Name.Value {
		case "location":
			if l, err := locationSpec(d); err == nil && l.IsRegex {
				check(d.File, d.Args[len(d.Args)-1], l.Path, l.CaseInsensitive)
			}
		case "if":
			if _, op, expr, ok := ifMatch(d); ok {
				w := d.Args[len(d.Args)-1]
				if w.Value == ")" && len(d.Args) >= 2 {
					w = d.Args[len(d.Args)-2]
				}
				check(d.File, w, expr, strings.HasSuffix(op, "*"))
			}
		case "rewrite":
			if len(d.Args) >= 2 {
				check(d.File, d.Args[0], d.Args[0].Value, false)
			}
		case "server_name":
			for _, a := range d.Args {
				if strings.HasPrefix(a.Value, "~") {
					check(d.File, a, a.Value[1:], false)
				}
			}
		case "map":
			if d.Block == nil {
				return
			}
			for _, e := range d.Block.Directives {
				if k := e.Name.Value; strings.HasPrefix(k, "~") {
					caseless := strings.HasPrefix(k, "~*")
					check(e.File, e.Name, strings.TrimPrefix(strings.TrimPrefix(k, "~"), "*"), caseless)
				}
			}
		}
	}, "location", "if", "rewrite", "server_name", "map")
}

// unbounded reports whether re is a repetition without an upper bound.
func unbounded(re *syntax.Regexp) bool {
	return re.Op == syntax.OpStar || re.Op == syntax.OpPlus || (re.Op == syntax.OpRepeat && re.Max < 0)
}

// nestedRepeat returns an unbounded repetition whose body can match a
// run of its own inner unbounded repetition with nothing else required
// (every other part of the body may match empty), or nil.
func nestedRepeat(re *syntax.Regexp) *syntax.Regexp {
	if unbounded(re) && bodyOnlyRepeats(re.Sub[0]) {
		return re
	}
	for _, sub := range re.Sub {
		if r := nestedRepeat(sub); r != nil {
			return r
		}
	}
	return nil
}

// bodyOnlyRepeats reports whether re contains an unbounded repetition of
// a non-empty pattern and everything beside it can match empty.
func bodyOnlyRepeats(re *syntax.Regexp) bool {
	switch re.Op {
	case syntax.OpCapture:
		return bodyOnlyRepeats(re.Sub[0])
	case syntax.OpStar, syntax.OpPlus, syntax.OpRepeat:
		if unbounded(re) {
			return true
		}
		return re.Op == syntax.OpRepeat && bodyOnlyRepeats(re.Sub[0])
	case syntax.OpQuest:
		return bodyOnlyRepeats(re.Sub[0])
	case syntax.OpConcat:
		found := false
		for _, sub := range re.Sub {
			switch {
			case !found && bodyOnlyRepeats(sub):
				found = true
			case !nullable(sub):
				return false
			}
		}
		return found
	case syntax.OpAlternate:
		for _, sub := range re.Sub {
			if bodyOnlyRepeats(sub) {
				return true
			}
		}
	}
	return false
}

// nullable reports whether re matches the empty string.
func nullable(re *syntax.Regexp) bool {
	_, n := mayStart(re, runeSet{r: 0})
	return n
}
