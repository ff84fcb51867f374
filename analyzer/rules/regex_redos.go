package rules

import (
	"strconv"
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/directives"
	"github.com/nginx-lint/nginx-lint/analyzer/regex"
	"github.com/nginx-lint/nginx-lint/analyzer/symbols"
	"github.com/nginx-lint/nginx-lint/parser"
)

// RegexReDoS reports regexes a backtracking engine such as PCRE can take
// exponential or polynomial time on (see analyzer/regex.AnalyzeBacktracking for the analysis).
var RegexReDoS = &analyzer.Rule{
	Code: "NL3018", Name: "regex-redos", Title: "regex can backtrack catastrophically", Severity: parser.Warning,
	Run: runRegexReDoS,
	Doc: analyzer.Doc{
		Text: "nginx matches regexes with PCRE, which backtracks: when a subject does not match, it tries " +
			"every way the regex can read it. A regex that can read one string in many ways makes that " +
			"exponential or polynomial in the subject's length, and one crafted URI or header keeps a worker " +
			"busy until PCRE's match limit stops it, while every other connection on that worker waits.\n\n" +
			"- **exponential**: a part that repeats can read the same text in two ways: a repeated group " +
			"whose body repeats (`(a+)+`, `(\\w+\\s?)*`, `(.*)*`), or alternatives that overlap under " +
			"a repetition (`(.|x)+`);\n" +
			"- **polynomial**: two repetitions in a row that read the same characters (`.*.*end`, " +
			"`\\d+\\d+$`): about n² steps on n characters.\n\n" +
			"The finding gives a subject that shows it (a prefix, a part repeated n times, an ending that " +
			"fails) and the growth. The analysis reads the regex's automaton (the ways it can read a " +
			"string), as PCRE writes it, unrolling bounded repetitions; the tests measure the growth with " +
			"PCRE2 itself. Make each repetition consume a fixed separator (`(/[a-z]+)*`), make " +
			"alternatives disjoint, or drop the inner quantifier. Checked: location, if, rewrite, map keys " +
			"and server_name regexes.",
		Bad:  "location ~ ^/(\\w+\\s?)*$ {\n    return 404;\n}\n",
		Good: "location ~ ^/(\\w+/)*$ {\n    return 404;\n}\n",
		URL:  "https://nginx.org/en/docs/http/ngx_http_core_module.html#location",
	},
}

func runRegexReDoS(p *analyzer.Pass) {
	var found regex.Memo[regex.Key, *regex.Backtracking]
	check := func(f *parser.File, w parser.Word, expr string, caseless bool) {
		b := found.Get(regex.Key{Expr: expr, Caseless: caseless}, func(k regex.Key) *regex.Backtracking {
			re := regex.Unfactored(k.Expr, k.Caseless)
			if re == nil {
				return nil
			}
			return regex.AnalyzeBacktracking(re, regex.Matcher(k.Expr, k.Caseless))
		})
		if b == nil {
			return
		}
		subject := strconv.Quote(b.Prefix) + " + " + strconv.Quote(b.Pump) + "×n + " + strconv.Quote(b.Suffix)
		if b.Exponential {
			diag := p.Reportf(f, w.Range, "regex %q backtracks exponentially (catastrophic backtracking): %s takes about 2^n steps", expr, subject)
			diag.Detail = "a repeated part can read the same text in two ways, so a subject that fails to match " +
				"makes PCRE try every split; make each repetition consume a fixed separator, make alternatives " +
				"disjoint, or remove the inner quantifier"
			return
		}
		diag := p.Reportf(f, w.Range, "regex %q backtracks polynomially: %s takes about n^2 steps", expr, subject)
		diag.Detail = "two repetitions in a row read the same characters, so a long subject that fails to match " +
			"makes PCRE try every boundary between them; merge them or put a fixed character between them"
	}
	p.WalkNamed(func(d *parser.Directive, _ directives.Context, _ []*parser.Directive) {
		switch d.Name().Value {
		case "location":
			if l, err := parser.LocationSpec(d); err == nil && l.IsRegex {
				check(d.File, d.Args()[len(d.Args())-1], l.Path, l.CaseInsensitive)
			}
		case "if":
			if _, op, expr, ok := symbols.IfMatch(d); ok {
				w := d.Args()[len(d.Args())-1]
				if w.Value == ")" && len(d.Args()) >= 2 {
					w = d.Args()[len(d.Args())-2]
				}
				check(d.File, w, expr, strings.HasSuffix(op, "*"))
			}
		case "rewrite":
			if len(d.Args()) >= 2 {
				check(d.File, d.Args()[0], d.Args()[0].Value, false)
			}
		case "server_name":
			for _, a := range d.Args() {
				if strings.HasPrefix(a.Value, "~") {
					check(d.File, a, a.Value[1:], false)
				}
			}
		case "map":
			if d.Block == nil {
				return
			}
			for _, e := range d.Block.Directives {
				if k := e.Name().Value; strings.HasPrefix(k, "~") {
					caseless := strings.HasPrefix(k, "~*")
					check(e.File, e.Name(), strings.TrimPrefix(strings.TrimPrefix(k, "~"), "*"), caseless)
				}
			}
		}
	}, "location", "if", "rewrite", "server_name", "map")
}
