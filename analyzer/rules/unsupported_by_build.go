package rules

import (
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/directives"
	"github.com/nginx-lint/nginx-lint/parser"
)

// UnsupportedByBuild reports a setting that needs a feature the targeted
// nginx was built without (a configure flag, not a module).
var UnsupportedByBuild = &analyzer.Rule{
	Code: "NL2046", Name: "unsupported-by-build", Title: "setting needs a feature this nginx was built without", Severity: parser.Error,
	Refuses: true,
	Run:     runUnsupportedByBuild,
	Doc: analyzer.Doc{
		Text: "Some values need a feature chosen when nginx is configured rather than a module: " +
			"`aio on` needs `--with-file-aio` and `aio threads` needs `--with-threads`. A build " +
			"without them refuses to start (`\"aio on\" is unsupported on this platform`). Only " +
			"checked when the build is known (`--nginx-build`, `--nginx`); Debian's packages, for " +
			"example, have threads but not file AIO.",
		Bad:  "events {}\nhttp {\n    aio on;\n}\n",
		Good: "events {}\nhttp {\n    aio threads;\n}\n",
		URL:  "https://nginx.org/en/docs/http/ngx_http_core_module.html#aio",
	},
}

func runUnsupportedByBuild(p *analyzer.Pass) {
	if p.Target.Configure == nil {
		return
	}
	p.WalkNamed(func(d *parser.Directive, ctx directives.Context, _ []*parser.Directive) {
		if len(d.Args()) != 1 || ctx&(directives.HTTP|directives.Server|directives.Location) == 0 {
			return
		}
		// ngx_http_core_set_aio compares case-sensitively: "On" is an
		// invalid value (invalid-value's), not "aio on".
		v := d.Args()[0].Value
		switch {
		case v == "on" && !p.Target.Built("--with-file-aio"):
			diag := p.Reportf(d.File, d.Args()[0].Range, "\"aio on\" is unsupported on this platform")
			diag.Detail = "this nginx was built without --with-file-aio; use \"aio threads;\" (--with-threads) or leave aio off"
		case (v == "threads" || strings.HasPrefix(v, "threads=")) && !p.Target.Built("--with-threads"):
			diag := p.Reportf(d.File, d.Args()[0].Range, "\"aio threads\" is unsupported on this platform")
			diag.Detail = "this nginx was built without --with-threads"
		}
	}, "aio")
}
