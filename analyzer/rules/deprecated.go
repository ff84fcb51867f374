package rules

import (
	"fmt"
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/directives"
	"github.com/nginx-lint/nginx-lint/analyzer/fix"
	"github.com/nginx-lint/nginx-lint/parser"
	"github.com/nginx-lint/nginx-lint/parser/grammar"
)

// Deprecated reports directives and parameters nginx has declared
// obsolete: "listen ... http2", "ssl on", and the directives the tables
// mark obsolete (http2_push, http2_idle_timeout, ...).
var Deprecated = &analyzer.Rule{
	Code: "NL2008", Name: "deprecated", Title: "deprecated directive or parameter", Severity: parser.Warning,
	Fixable: true,
	Run:     runDeprecated,
	Doc: analyzer.Doc{
		Text: "Some forms still load but are on their way out, and newer nginx versions warn about " +
			"them or reject them:\n\n" +
			"- `listen ... http2` is deprecated since nginx 1.25.1 (`the \"listen ... http2\" directive " +
			"is deprecated, use the \"http2\" directive instead`): write `http2 on;` in the server;\n" +
			"- `ssl on;` is deprecated since 1.15.0 and gone since 1.25.1 (`unknown directive \"ssl\"`): " +
			"write `listen 443 ssl;` instead;\n" +
			"- directives that nginx marks obsolete and ignores with a warning, such as `http2_push`, " +
			"`http2_push_preload` (1.25.1), `http2_idle_timeout`, `http2_recv_timeout`, " +
			"`http2_max_field_size` (1.19.7). The message names the replacement when there is one.",
		Bad:  "events {}\nhttp {\n    server {\n        listen 127.0.0.1:8443 ssl http2;\n    }\n}\n",
		Good: "events {}\nhttp {\n    server {\n        listen 127.0.0.1:8443 ssl;\n        http2 on;\n    }\n}\n",
		URL:  "https://nginx.org/en/docs/http/ngx_http_v2_module.html#http2",
	},
}

// obsoleteReplacements says what to write instead of an obsolete directive, where
// nginx's changelog names something.
var obsoleteReplacements = map[string]string{
	"http2_idle_timeout":    "keepalive_timeout",
	"http2_recv_timeout":    "client_header_timeout",
	"http2_max_field_size":  "large_client_header_buffers",
	"http2_max_header_size": "large_client_header_buffers",
	"http2_max_requests":    "keepalive_requests",
}

func runDeprecated(p *analyzer.Pass) {
	// "listen ... http2" is deprecated only from 1.25.1 on, and "http2 on;"
	// does not exist before: an older target keeps the listen form.
	listenHTTP2 := p.Target.AtLeast("1.25.1")
	target := p.Target
	for _, s := range p.Model().Servers {
		if s.Protocol != parser.HTTP || !listenHTTP2 {
			continue
		}
		// The fix moves the parameter into one "http2 on;" per server.
		needOn, checked := false, false
		for _, l := range s.Listens() {
			if l.Spec == nil || !l.Spec.Has(grammar.ParamHTTP2) {
				continue
			}
			for _, prm := range l.Spec.Params {
				if prm.Kind != grammar.ParamHTTP2 {
					continue
				}
				d := p.Reportf(l.Directive.File, l.Directive.Args()[prm.Arg].Range,
					"the \"listen ... http2\" directive is deprecated, use the \"http2\" directive instead")
				d.Detail = "since nginx 1.25.1; write \"http2 on;\" in the server (nginx 1.25.1 or later)"
				if !p.FixAllowed(d, "1.25.1") {
					// Without a target, nothing says this nginx has
					// "http2 on": an older one refuses it.
					d.Detail += "; not fixed automatically: \"http2 on\" needs nginx 1.25.1, which nothing else in this " +
						"configuration needs; name the target (--nginx-version or --nginx-build, or nginx-version in .nginx-lint.yaml) to fix it"
					continue
				}
				d.Edits = []parser.Edit{fix.RemoveArg(l.Directive, prm.Arg)}
				if !checked {
					needOn, checked = !s.Directive.HasChild("http2"), true
				}
				if needOn {
					if e, ok := fix.InsertAfter(l.Directive, "http2 on;"); ok {
						d.Edits = append(d.Edits, e)
						needOn = false
					}
				}
			}
		}
	}
	p.WalkEntries(func(e *analyzer.Entry, stack []*parser.Directive) {
		d, ctx := e.Directive, e.Context()
		if directives.DataBlock(ctx) {
			return
		}
		name := d.Name().Value
		if name == "ssl" && ctx&(directives.HTTP|directives.Server|directives.Mail|directives.MailServer) != 0 {
			// From 1.25.1 on (and with no target, the newest nginx)
			// unknown-directive reports it as removed, with this fix.
			if !target.Lacks("1.15.0") && target.Lacks("1.25.1") {
				diag := p.ReportDirective(d, "the \"ssl\" directive is deprecated, use the \"listen ... ssl\" directive instead")
				diag.Detail = "deprecated since nginx 1.15.0 and removed in 1.25.1, which reports it as an unknown directive"
				p.AssumeTarget(diag)
				diag.Edits = sslOnEdits(d, p.ServerOf(sameFileParent(d, stack)))
			}
			return
		}
		row := e.Row()
		if row == nil {
			return
		}
		if removed, ok := row.Tags.Value("removed-in"); ok && !target.Lacks(removed) {
			return // unknown-directive: nginx no longer knows it
		}
		since, obsolete := row.Tags.Value("obsolete-since")
		if !obsolete && !row.Tags.Has("src-obsolete") || obsolete && target.Lacks(since) {
			return
		}
		msg := fmt.Sprintf("the %q directive is obsolete", name)
		if obsolete && !strings.HasPrefix(name, "js_") {
			msg += " since nginx " + since
		}
		diag := p.ReportDirective(d, "%s", msg)
		if r := obsoleteReplacements[name]; r != "" {
			diag.Detail = fmt.Sprintf("nginx ignores it; use %q instead", r)
		} else {
			diag.Detail = "nginx ignores it or no longer knows it; remove it"
		}
		if removed, ok := row.Tags.Value("removed-in"); ok {
			diag.Detail += " (removed in " + removed + ")"
		}
		if obsolete {
			p.AssumeTarget(diag) // obsolete only from its release on
		}
	})
}

// sameFileParent returns the block d is in when that block is in d's
// file: edits stay in the file of the finding, so a server in the
// including file is left alone.
func sameFileParent(d *parser.Directive, stack []*parser.Directive) *parser.Directive {
	if n := len(stack); n > 0 && stack[n-1].File == d.File {
		return stack[n-1]
	}
	return nil
}

// sslOnEdits fixes "ssl on;" in a server: the directive goes and every
// listen of the server gets the "ssl" parameter, which is what "ssl on"
// meant. "ssl off;" just goes. In the http block (all servers) or with a
// listen that does not parse, there is no mechanical fix.
func sslOnEdits(d *parser.Directive, s *parser.Server) []parser.Edit {
	if len(d.Args()) != 1 {
		return nil
	}
	edits := []parser.Edit{fix.DeleteDirective(d)}
	if strings.EqualFold(d.Args()[0].Value, "off") {
		return edits
	}
	if s == nil || len(s.Listens()) == 0 {
		return nil
	}
	for _, l := range s.Listens() {
		if l.Spec == nil || len(l.Directive.Args()) == 0 {
			return nil
		}
		if l.Spec.Has(grammar.ParamSSL) {
			continue
		}
		at := l.Directive.Args()[len(l.Directive.Args())-1].Range.End
		edits = append(edits, parser.Edit{File: l.Directive.File, Range: parser.Range{Start: at, End: at}, NewText: " ssl"})
	}
	return edits
}
