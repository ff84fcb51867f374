package rules

import (
	"sync"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/directives"
	"github.com/nginx-lint/nginx-lint/analyzer/symbols"
	"github.com/nginx-lint/nginx-lint/parser"
)

// InvalidVariableName reports a "$" that starts no variable name, an
// unclosed "${", and a set, map, geo or split_clients target without "$".
var InvalidVariableName = &analyzer.Rule{
	Code: "NL2036", Name: "invalid-variable-name", Title: "malformed variable reference", Severity: parser.Error,
	Refuses: true,
	Run:     runInvalidVariableName,
	Doc: analyzer.Doc{
		Text: "In an argument nginx compiles, `$` must be followed by a name (letters, digits, `_`) or " +
			"by `{name}`: a lone `$` or `$` before another character fails with `invalid variable " +
			"name`, and `${name` without its `}` with `the closing bracket in \"name\" variable is " +
			"missing`. The variable that `set`, `map`, `geo` and `split_clients` define must be " +
			"written with its `$` (`invalid variable name \"name\"`). To send a literal dollar sign, " +
			"put it in a variable: `geo $dollar { default \"$\"; }`.",
		Bad:  "events {}\nhttp {\n    server {\n        listen 80;\n        set price 5;\n        return 200 \"${price\";\n    }\n}\n",
		Good: "events {}\nhttp {\n    server {\n        listen 80;\n        set $price 5;\n        return 200 \"${price}\";\n    }\n}\n",
		URL:  "https://nginx.org/en/docs/http/ngx_http_rewrite_module.html#set",
	},
}

func runInvalidVariableName(p *analyzer.Pass) {
	vf := variableFacts(p)
	for _, e := range vf.Errors {
		p.Reportf(e.Directive.File, e.Word.SubRange(e.Directive.File, e.Offset, 1), "%s", e.Message)
	}
	p.WalkNamed(func(d *parser.Directive, _ directives.Context, _ []*parser.Directive) {
		j, ok := symbols.DefiningArg(d)
		if !ok {
			return
		}
		if w := d.Args()[j]; w.Value == "" || w.Value[0] != '$' {
			diag := p.Reportf(d.File, w.Range, "invalid variable name %q", w.Value)
			diag.Detail = "the variable " + d.Name().Value + " defines is written with its \"$\": $" + w.Value
		}
	}, checkedDefiners()...)
}

// checkedDefiners are the directives whose handler refuses a variable
// written without its "$": nginx's, lua-nginx-module's set_by_lua*, and
// set-misc's, which NDK's ndk_set_var_name reads.
var checkedDefiners = sync.OnceValue(func() []string {
	names := []string{"set", "map", "geo", "split_clients", "perl_set", "js_set", "auth_request_set", "set_by_lua", "set_by_lua_block", "set_by_lua_file"}
	for _, row := range directives.All() {
		if _, ok := row.DefinesArg(); ok && row.Module == "ngx_http_set_misc_module" {
			names = append(names, row.Name)
		}
	}
	return names
})
