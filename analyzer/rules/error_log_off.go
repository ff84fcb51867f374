package rules

import (
	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/directives"
	"github.com/nginx-lint/nginx-lint/parser"
)

// ErrorLogOff reports "error_log off", which logs to a file named "off".
var ErrorLogOff = &analyzer.Rule{
	Code: "NL3014", Name: "error-log-off", Title: "error_log off writes to a file named off", Severity: parser.Warning,
	Run: runErrorLogOff,
	Doc: analyzer.Doc{
		Text: "Unlike `access_log`, `error_log` has no `off` value: `error_log off;` logs errors to a " +
			"file called `off` in the prefix directory, where nobody looks and which grows " +
			"unbounded. To discard errors write `error_log /dev/null crit;` (nginx still logs " +
			"start-up errors to the default log); better, keep an error log.",
		Bad:  "error_log off;\n",
		Good: "error_log /var/log/nginx/error.log warn;\n",
		URL:  "https://nginx.org/en/docs/ngx_core_module.html#error_log",
	},
}

func runErrorLogOff(p *analyzer.Pass) {
	p.WalkNamed(func(d *parser.Directive, _ directives.Context, _ []*parser.Directive) {
		if d.Is("error_log") && len(d.Args()) >= 1 && d.Args()[0].Value == "off" {
			diag := p.Reportf(d.File, d.Args()[0].Range, "%q %q does not disable logging: it writes to a file named %q", "error_log", "off", "off")
			diag.Detail = "use \"error_log /dev/null crit;\" to discard errors, or point it at a real log file"
		}
	}, "error_log")
}
