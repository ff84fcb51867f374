package rules

import (
	"fmt"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/symbols"
	"github.com/nginx-lint/nginx-lint/parser"
)

// VariableCase reports a configuration variable written in another case
// than where it is defined.
var VariableCase = &analyzer.Rule{
	Code: "NL5004", Name: "variable-case", Title: "a variable written in another case than its definition", Severity: parser.Info,
	Run: runVariableCase,
	Doc: analyzer.Doc{
		Text: "nginx folds variable names to lower case when it defines and when it looks them up " +
			"(`ngx_http_add_variable`, `ngx_http_get_variable_index`), so `$Backend` and `$backend` " +
			"are one variable. A configuration that writes both usually means two: the second `set` " +
			"or `map` silently overwrites the first, and a reader cannot tell. The rule reports each " +
			"use or further definition spelt otherwise than the variable's first definition; nginx's " +
			"own variables are not checked.",
		Bad:  "events {}\nhttp {\n    map $host $Backend {\n        default 127.0.0.1:8080;\n    }\n    server {\n        listen 80;\n        location / {\n            proxy_pass http://$backend;\n        }\n    }\n}\n",
		Good: "events {}\nhttp {\n    map $host $backend {\n        default 127.0.0.1:8080;\n    }\n    server {\n        listen 80;\n        location / {\n            proxy_pass http://$backend;\n        }\n    }\n}\n",
	},
}

func runVariableCase(p *analyzer.Pass) {
	vf := variableFacts(p)
	tab := symbols.Of(p)
	// first holds each variable's first definition and its spelling.
	type def struct {
		o       symbols.Occurrence
		spelled string
	}
	first := map[symbols.Symbol]*def{}
	lookup := func(sym symbols.Symbol) *def {
		if d, ok := first[sym]; ok {
			return d
		}
		var d *def
		if o, ok := tab.FirstDefinition(sym); ok && !o.Opaque {
			d = &def{o, string(o.File.Src[o.Range.Start:o.Range.End])}
		}
		first[sym] = d
		return d
	}
	where := func(o symbols.Occurrence) string {
		return fmt.Sprintf("%s:%d", o.File.Path, o.File.Line(int(o.Range.Start)))
	}
	for _, u := range vf.Uses {
		d := lookup(symbols.VariableSymbol(u.Name, u.Stream))
		if d == nil || d.spelled == u.Name {
			continue
		}
		diag := p.Reportf(u.Directive.File, u.Range, "$%s is defined as $%s (%s): nginx folds variable names to lower case, so both are one variable", u.Name, d.spelled, where(d.o))
		diag.Detail = "write it as it is defined; if two variables are meant, give them different names"
	}
	for _, sym := range tab.Symbols(symbols.Variable) {
		d := lookup(sym)
		if d == nil {
			continue
		}
		for _, o := range tab.Definitions(sym)[1:] {
			if spelled := string(o.File.Src[o.Range.Start:o.Range.End]); !o.Opaque && spelled != d.spelled {
				diag := p.Reportf(o.File, o.Range, "$%s is defined as $%s (%s) too: nginx folds variable names to lower case, so this defines the same variable again", spelled, d.spelled, where(d.o))
				diag.Detail = "if two variables are meant, give them different names"
			}
		}
	}
}
