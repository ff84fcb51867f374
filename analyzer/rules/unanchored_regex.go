package rules

import (
	"regexp/syntax"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/directives"
	"github.com/nginx-lint/nginx-lint/analyzer/regex"
	"github.com/nginx-lint/nginx-lint/parser"
)

// UnanchoredRegex reports regex locations anchored at neither end.
var UnanchoredRegex = &analyzer.Rule{
	Code: "NL3017", Name: "unanchored-regex", Title: "regex location is anchored at neither end", Severity: parser.Warning,
	Run: runUnanchoredRegex,
	Doc: analyzer.Doc{
		Text: "A location regex matches anywhere in the URI. `location ~ \\.php` also matches " +
			"`/uploads/avatar.php.png` and `/x.php/../secret`, so an uploaded image can be handed to " +
			"the PHP interpreter, and a `/static` regex catches `/api/static-report`. Anchor the " +
			"end (`\\.php$`) or the start (`^/static/`). A location that only refuses " +
			"(`location ~ /\\.ht { deny all; }`, `return 404;`) is meant to match anywhere and is " +
			"not reported.",
		Bad:  "location ~ \\.php {\n    fastcgi_pass unix:/run/php-fpm.sock;\n}\n",
		Good: "location ~ \\.php$ {\n    fastcgi_pass unix:/run/php-fpm.sock;\n}\n",
		URL:  "https://nginx.org/en/docs/http/ngx_http_core_module.html#location",
	},
}

func runUnanchoredRegex(p *analyzer.Pass) {
	var unanchored regex.VerdictMemo[bool]
	p.WalkNamed(func(d *parser.Directive, _ directives.Context, _ []*parser.Directive) {
		if !d.Is("location") || len(d.Args()) == 0 {
			return
		}
		l, err := parser.LocationSpec(d)
		if err != nil || !l.IsRegex || refusesOnly(d) {
			return
		}
		if !unanchored.Get(l.Path, l.CaseInsensitive, func(re *syntax.Regexp) bool { return re != nil && !anchored(re) }) {
			return
		}
		arg := d.Args()[len(d.Args())-1]
		diag := p.Reportf(d.File, arg.Range, "regex location %q is anchored at neither end: it matches anywhere in the URI", l.Path)
		diag.Detail = "add \"$\" at the end (file extensions) or \"^\" at the start (path prefixes)"
	}, "location")
}

// refusesOnly reports whether a location block does nothing but refuse
// the request (deny all, return 403/404/444) and tune its logging: such a
// location (location ~ /\.ht { deny all; }) is meant to match anywhere.
func refusesOnly(d *parser.Directive) bool {
	if d.Block == nil {
		return false
	}
	refuses := false
	for _, c := range d.Block.Directives {
		switch c.Name().Value {
		case "deny":
			refuses = refuses || len(c.Args()) == 1 && c.Args()[0].Value == "all"
		case "return":
			if len(c.Args()) >= 1 {
				switch c.Args()[0].Value {
				case "403", "404", "410", "444":
					refuses = true
					continue
				}
			}
			return false
		case "access_log", "log_not_found", "error_log":
		default:
			return false
		}
	}
	return refuses
}

// anchored reports whether every alternative of re is anchored at its
// start or its end.
func anchored(re *syntax.Regexp) bool {
	for (re.Op == syntax.OpCapture || re.Op == syntax.OpConcat) && len(re.Sub) == 1 {
		re = re.Sub[0]
	}
	if re.Op == syntax.OpAlternate {
		for _, s := range re.Sub {
			if !anchored(s) {
				return false
			}
		}
		return true
	}
	return anchoredStart(re) || anchoredEnd(re)
}

// anchoredStart reports whether every match of re starts at the
// beginning of the subject.
func anchoredStart(re *syntax.Regexp) bool {
	switch re.Op {
	case syntax.OpBeginText, syntax.OpBeginLine:
		return true
	case syntax.OpCapture, syntax.OpPlus:
		// (^/foo)+: the first repetition starts the match.
		return anchoredStart(re.Sub[0])
	case syntax.OpRepeat:
		return re.Min >= 1 && anchoredStart(re.Sub[0])
	case syntax.OpConcat:
		return len(re.Sub) > 0 && anchoredStart(re.Sub[0])
	case syntax.OpAlternate:
		for _, s := range re.Sub {
			if !anchoredStart(s) {
				return false
			}
		}
		return len(re.Sub) > 0
	}
	return false
}

// anchoredEnd reports whether every match of re ends at the end of the
// subject.
func anchoredEnd(re *syntax.Regexp) bool {
	switch re.Op {
	case syntax.OpEndText, syntax.OpEndLine:
		return true
	case syntax.OpCapture, syntax.OpPlus:
		return anchoredEnd(re.Sub[0])
	case syntax.OpRepeat:
		return re.Min >= 1 && anchoredEnd(re.Sub[0])
	case syntax.OpConcat:
		return len(re.Sub) > 0 && anchoredEnd(re.Sub[len(re.Sub)-1])
	case syntax.OpAlternate:
		for _, s := range re.Sub {
			if !anchoredEnd(s) {
				return false
			}
		}
		return len(re.Sub) > 0
	}
	return false
}
