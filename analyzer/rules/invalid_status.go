package rules

import (
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/directives"
	"github.com/nginx-lint/nginx-lint/parser"
	"github.com/nginx-lint/nginx-lint/parser/grammar"
)

// InvalidStatus reports status codes nginx refuses in return and
// error_page.
var InvalidStatus = &analyzer.Rule{
	Code: "NL2021", Name: "invalid-status", Title: "status code nginx refuses", Severity: parser.Error,
	Refuses: true,
	Run:     runInvalidStatus,
	Doc: analyzer.Doc{
		Text: "`return` takes a code from 0 to 999 (`invalid return code \"1000\"`), or with a single " +
			"argument a URL starting with `http://`, `https://` or `$scheme` (a 302 redirect). " +
			"`error_page` takes codes from 300 to 599 but not 499 (`value \"200\" must be between 300 " +
			"and 599`, `invalid value \"abc\"`), then optionally `=` or `=CODE` (not as the first " +
			"argument), then the URI.",
		Bad:  "events {}\nhttp {\n    server {\n        listen 127.0.0.1:8080;\n        error_page 200 /ok.html;\n        return 3011;\n    }\n}\n",
		Good: "events {}\nhttp {\n    server {\n        listen 127.0.0.1:8080;\n        error_page 404 =200 /ok.html;\n        return 301 /new;\n    }\n}\n",
		URL:  "https://nginx.org/en/docs/http/ngx_http_core_module.html#error_page",
	},
}

func runInvalidStatus(p *analyzer.Pass) {
	p.WalkNamed(func(d *parser.Directive, ctx directives.Context, _ []*parser.Directive) {
		if ctx&(directives.HTTP|directives.Server|directives.Location|directives.IfInServer|directives.IfInLocation) == 0 || len(d.Args()) == 0 {
			return
		}
		if d.Name().Value == "return" {
			checkReturn(p, d)
		} else if len(d.Args()) >= 2 {
			checkErrorPage(p, d)
		}
	}, "return", "error_page")
}

func checkReturn(p *analyzer.Pass, d *parser.Directive) {
	a := d.Args()[0]
	v := a.Value
	n, ok := grammar.Atoi(v)
	if ok && n <= 999 {
		return
	}
	if !ok && len(d.Args()) == 1 {
		for _, prefix := range []string{"http://", "https://", "$scheme"} {
			if strings.HasPrefix(v, prefix) {
				return
			}
		}
	}
	diag := p.Reportf(d.File, a.Range, "invalid return code \"%s\"", v)
	diag.Detail = "return takes a code from 0 to 999 (then a URL or a text), or only a URL starting with http://, https:// or $scheme"
}

func checkErrorPage(p *analyzer.Pass, d *parser.Directive) {
	args := d.Args()
	n := 1
	if eq := args[len(args)-2]; strings.HasPrefix(eq.Value, "=") {
		if len(args) == 2 {
			p.Reportf(d.File, eq.Range, "invalid value \"%s\"", eq.Value).Detail = "error_page needs a code before =: error_page 404 =200 /x"
			return
		}
		if len(eq.Value) > 1 {
			if _, ok := grammar.Atoi(eq.Value[1:]); !ok {
				p.Reportf(d.File, eq.Range, "invalid value \"%s\"", eq.Value).Detail = "the response code after = must be a number: =200"
				return
			}
		}
		n = 2
	}
	for _, a := range args[:len(args)-n] {
		code, ok := grammar.Atoi(a.Value)
		switch {
		case !ok || code == 499:
			p.Reportf(d.File, a.Range, "invalid value \"%s\"", a.Value).Detail = "error_page takes status codes from 300 to 599 (but not 499), then the URI"
			return
		case code < 300 || code > 599:
			p.Reportf(d.File, a.Range, "value \"%s\" must be between 300 and 599", a.Value).Detail = "error_page handles error and redirect responses only"
			return
		}
	}
}
