package rules

import (
	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/parser"
)

// UpstreamNoServers reports an upstream block without a server.
var UpstreamNoServers = &analyzer.Rule{
	Code: "NL2041", Name: "upstream-no-servers", Title: "upstream block without servers", Severity: parser.Error,
	Run: runUpstreamNoServers,
	Doc: analyzer.Doc{
		Text: "An `upstream` block needs at least one `server`: nginx refuses to start with `no servers are " +
			"inside upstream`, reported at the block's closing brace.",
		Bad:  "events {}\nhttp {\n    upstream backend {\n        keepalive 8;\n    }\n}\n",
		Good: "events {}\nhttp {\n    upstream backend {\n        server 127.0.0.1:8080;\n        keepalive 8;\n    }\n}\n",
		URL:  "https://nginx.org/en/docs/http/ngx_http_upstream_module.html#upstream",
	},
}

func runUpstreamNoServers(p *analyzer.Pass) {
	if !wholeConfig(p) {
		return
	}
	ix := p.Index()
	for _, i := range ix.Named("upstream") {
		e := &ix.Entries[i]
		d := e.Directive
		if e.Context == 0 || d.Block == nil || d.RBrace < 0 {
			continue
		}
		has := false
		for j := int(i) + 1; j < len(ix.Entries) && ix.Entries[j].Depth > e.Depth; j++ {
			if ix.Entries[j].Parent == i && ix.Entries[j].Directive.Is("server") {
				has = true
				break
			}
		}
		if has {
			continue
		}
		name := ""
		if len(d.Args) > 0 {
			name = d.Args[0].Value
		}
		diag := p.Reportf(d.File, parser.Range{Start: d.RBrace, End: d.RBrace + 1}, "no servers are inside upstream %q", name)
		diag.Detail = "add a server to the upstream, or remove the upstream"
		diag.Related = []parser.Related{{File: d.File, Range: d.Name.Range, Message: "the upstream"}}
	}
}
