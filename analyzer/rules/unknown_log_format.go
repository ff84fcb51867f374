package rules

import (
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/directives"
	"github.com/nginx-lint/nginx-lint/analyzer/symbols"
	"github.com/nginx-lint/nginx-lint/parser"
)

// UnknownLogFormat reports an access_log whose format no log_format
// above it defines.
var UnknownLogFormat = &analyzer.Rule{
	Code: "NL2039", Name: "unknown-log-format", Title: "access_log names an undefined log_format", Severity: parser.Error,
	Refuses: true,
	Run:     runUnknownLogFormat,
	Doc: analyzer.Doc{
		Text: "`access_log PATH NAME` looks NAME up among the `log_format`s read so far (case-insensitively) " +
			"the moment nginx reads the `access_log`, so the format must be defined above it, in `http` " +
			"(`combined` is built in), or in `stream`, which has no built-in format and needs one named " +
			"(`log format is not specified`). nginx refuses to start with `unknown log format \"x\"`.",
		Bad:  "events {}\nhttp {\n    access_log /var/log/nginx/access.log main;\n    log_format main '$remote_addr $request';\n}\n",
		Good: "events {}\nhttp {\n    log_format main '$remote_addr $request';\n    access_log /var/log/nginx/access.log main;\n}\n",
		URL:  "https://nginx.org/en/docs/http/ngx_http_log_module.html#access_log",
	},
}

func runUnknownLogFormat(p *analyzer.Pass) {
	c := p.Config
	if len(c.Context) > 0 {
		return // a fragment: its main configuration may define them
	}
	for _, d := range c.Diagnostics {
		if d.Name == parser.NameIncludeCycle {
			return
		}
	}
	ix := p.Index()
	tab := symbols.Of(p)
	// open is set from the first include that finds no file on this
	// machine: it may define a format, but only for the access_logs
	// after it, since nginx looks the name up as it reads.
	open := false
	for _, i := range ix.Named("access_log", "include") {
		e := &ix.Entries[i]
		d := e.Directive
		if d.Is("include") {
			open = open || len(d.Args()) == 1 && len(c.Included(d)) == 0 &&
				!(strings.ContainsAny(d.Args()[0].Value, "*?[") && p.GlobDirExists(d.Args()[0].Value))
			continue
		}
		if e.Context() == 0 || len(d.Args()) == 0 {
			continue
		}
		ns := nsHTTP
		if e.Context()&directives.StreamContexts != 0 {
			ns = nsStream
		}
		if d.Args()[0].Value == "off" || open {
			continue
		}
		if len(d.Args()) < 2 {
			if ns == nsStream {
				diag := p.ReportDirective(d, "log format is not specified")
				diag.Detail = "stream has no built-in log format: name a log_format defined above"
			}
			continue
		}
		// nginx reads formats in order: one defined below is unknown
		// here. http has "combined" built in.
		name := d.Args()[1]
		def, ok := tab.FirstDefinition(symbols.LogFormatSymbol(name.Value, ns == nsStream))
		if !(ok && def.Entry < i) && !(ns == nsHTTP && strings.EqualFold(name.Value, "combined")) {
			diag := p.Reportf(d.File, name.Range, "unknown log format %q", name.Value)
			diag.Detail = "no log_format " + name.Value + " is defined above this access_log (nginx reads formats in order); define it first or fix the name"
		}
	}
}
