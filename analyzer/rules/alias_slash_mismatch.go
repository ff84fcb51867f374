package rules

import (
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/directives"
	"github.com/nginx-lint/nginx-lint/analyzer/fix"
	"github.com/nginx-lint/nginx-lint/analyzer/script"
	"github.com/nginx-lint/nginx-lint/parser"
	"github.com/nginx-lint/nginx-lint/parser/grammar"
)

// AliasSlashMismatch reports a prefix location ending in "/" whose alias
// does not, which glues the rest of the URI to the directory name.
var AliasSlashMismatch = &analyzer.Rule{
	Code: "NL2050", Name: "alias-slash-mismatch", Title: "location ends with a slash but its alias does not", Severity: parser.Warning,
	Fixable: true,
	Run:     runAliasSlashMismatch,
	Doc: analyzer.Doc{
		Text: "`alias` replaces the part of the URI that the location matched. With " +
			"`location /files/ { alias /data/files; }` the request `/files/a.txt` becomes " +
			"`/data/filesa.txt`: the slash the location consumed is gone, so every file is " +
			"\"not found\", or worse, a sibling directory such as `/data/files-private/` is served " +
			"for `/files/-private/`. End the alias with a slash as the location does. (The opposite " +
			"mismatch, a location without the slash and an alias with it, is alias-traversal.)",
		Bad:  "location /files/ {\n    alias /data/files;\n}\n",
		Good: "location /files/ {\n    alias /data/files/;\n}\n",
		URL:  "https://nginx.org/en/docs/http/ngx_http_core_module.html#alias",
	},
}

func runAliasSlashMismatch(p *analyzer.Pass) {
	p.WalkNamed(func(d *parser.Directive, _ directives.Context, stack []*parser.Directive) {
		if len(d.Args()) != 1 || script.HasVars(d.Args()[0].Value) {
			return
		}
		loc := analyzer.Innermost(stack, "location")
		if loc == nil || (len(stack) > 0 && stack[len(stack)-1] != loc) {
			return // alias is not allowed in "if in location"; nginx says so
		}
		l, err := parser.LocationSpec(loc)
		if err != nil || l.Named || l.IsRegex || l.Modifier == grammar.ModExact || !strings.HasSuffix(l.Path, "/") {
			return
		}
		alias := d.Args()[0].Value
		if alias == "" || strings.HasSuffix(alias, "/") {
			return
		}
		diag := p.Reportf(d.File, d.Args()[0].Range, "location %q ends with a slash but %q %q does not: %q maps to %q",
			l.Path, "alias", alias, l.Path+"a", alias+"a")
		diag.Detail = "end the alias with a slash, as the location does"
		diag.Edits = []parser.Edit{fix.ReplaceArg(d.File, d.Args()[0], alias+"/")}
	}, "alias")
}
